import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_AUDIO_SETTINGS } from '../../../../common/audio-settings';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { AudioSettingsPanel } from './audio-settings-panel';

afterEach(() => vi.unstubAllGlobals());

const PATH = '/api/admin/station/audio';

describe('Station tab: audio settings', () => {
  it('shows the saved settings and saves a new target, peak, crossfade and the bitrates left on', async () => {
    const api = fakeStaffApi({
      [`GET ${PATH}`]: { status: 200, body: DEFAULT_AUDIO_SETTINGS },
      [`PUT ${PATH}`]: ({ body }) => ({ status: 200, body }),
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AudioSettingsPanel />);
    const target = await screen.findByLabelText('Loudness target (LUFS)');
    expect(target).toHaveValue(-16);
    expect(screen.getByLabelText('Maximum true peak (dBTP)')).toHaveValue(-1);
    expect(screen.getByLabelText('Crossfade (seconds)')).toHaveValue(2);
    for (const kbps of [128, 96, 80, 64]) expect(screen.getByLabelText(`${kbps} kbps`)).toBeChecked();

    await user.clear(target);
    await user.type(target, '-14.5');
    await user.clear(screen.getByLabelText('Maximum true peak (dBTP)'));
    await user.type(screen.getByLabelText('Maximum true peak (dBTP)'), '-2');
    await user.clear(screen.getByLabelText('Crossfade (seconds)'));
    await user.type(screen.getByLabelText('Crossfade (seconds)'), '4.5');
    expect(screen.getByLabelText('Silence level (dBFS)')).toHaveValue(-50);
    await user.clear(screen.getByLabelText('Silence time (seconds)'));
    await user.type(screen.getByLabelText('Silence time (seconds)'), '15');
    await user.click(screen.getByLabelText('96 kbps'));
    await user.click(screen.getByLabelText('80 kbps'));
    await user.click(screen.getByRole('button', { name: 'Save Audio Settings' }));
    expect(await screen.findByText('Audio settings saved')).toBeInTheDocument();
    expect(api.calls('PUT', PATH)[0]!.body).toEqual({
      loudness_target_lufs: -14.5,
      true_peak_dbtp: -2,
      crossfade_seconds: 4.5,
      silence_threshold_dbfs: -50,
      silence_seconds: 15,
      bitrates: [128, 64],
    });
  });

  it('turning a bitrate back on keeps them highest first', async () => {
    const api = fakeStaffApi({
      [`GET ${PATH}`]: { status: 200, body: { ...DEFAULT_AUDIO_SETTINGS, bitrates: [128, 64] } },
      [`PUT ${PATH}`]: ({ body }) => ({ status: 200, body }),
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AudioSettingsPanel />);
    expect(await screen.findByLabelText('80 kbps')).not.toBeChecked();
    await user.click(screen.getByLabelText('80 kbps'));
    await user.click(screen.getByRole('button', { name: 'Save Audio Settings' }));
    expect(await screen.findByText('Audio settings saved')).toBeInTheDocument();
    expect(api.calls('PUT', PATH)[0]!.body).toMatchObject({ bitrates: [128, 80, 64] });
  });

  it.each([
    ['Loudness target (LUFS)', '-8', 'Loudness target must be between -30 and -10 LUFS'],
    ['Maximum true peak (dBTP)', '1', 'Maximum true peak must be between -6 and 0 dBTP'],
    ['Crossfade (seconds)', '12', 'Crossfade must be between 0 and 10 seconds'],
    ['Crossfade (seconds)', '1.2', 'Crossfade must be in steps of 0.5 seconds'],
    ['Crossfade (seconds)', '', 'Crossfade must be a number'],
  ])('refuses %s of %j before sending', async (label, value, message) => {
    const api = fakeStaffApi({ [`GET ${PATH}`]: { status: 200, body: DEFAULT_AUDIO_SETTINGS } });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AudioSettingsPanel />);
    const field = await screen.findByLabelText(label);
    await user.clear(field);
    if (value) await user.type(field, value);
    await user.click(screen.getByRole('button', { name: 'Save Audio Settings' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls('PUT', PATH)).toEqual([]);
  });

  it('keeps at least one bitrate on', async () => {
    const api = fakeStaffApi({
      [`GET ${PATH}`]: { status: 200, body: { ...DEFAULT_AUDIO_SETTINGS, bitrates: [96] } },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AudioSettingsPanel />);
    await user.click(await screen.findByLabelText('96 kbps'));
    await user.click(screen.getByRole('button', { name: 'Save Audio Settings' }));
    expect(await screen.findByText('At least one stream bitrate must stay on')).toBeInTheDocument();
    expect(api.calls('PUT', PATH)).toEqual([]);
  });

  it("shows the server's refusal", async () => {
    fakeStaffApi({
      [`GET ${PATH}`]: { status: 200, body: DEFAULT_AUDIO_SETTINGS },
      [`PUT ${PATH}`]: { status: 403, body: { message: 'Superuser access required' } },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<AudioSettingsPanel />);
    await user.click(await screen.findByRole('button', { name: 'Save Audio Settings' }));
    expect(await screen.findByText('Audio settings not saved')).toBeInTheDocument();
    expect(screen.getByText('Superuser access required')).toBeInTheDocument();
  });

  it('says so when the settings cannot be loaded', async () => {
    fakeStaffApi({ [`GET ${PATH}`]: { status: 500, body: { message: 'Something went wrong' } } });
    renderWithProviders(<AudioSettingsPanel />);
    expect(await screen.findByText('The audio settings could not be loaded.')).toBeInTheDocument();
  });
});
