import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { ContentTab } from './content-tab';

const sermon = {
  id: 'c1',
  type: 'sermon',
  title: 'Grace upon grace',
  description: 'John 1 in the morning service',
  imageUrl: '/uploads/grace.webp',
  audioUrl: null,
  playCount: 3,
};

afterEach(() => vi.unstubAllGlobals());

function setUp(routes: Parameters<typeof fakeStaffApi>[0] = {}) {
  const api = fakeStaffApi({ 'GET /api/featured-content': { status: 200, body: [sermon] }, ...routes });
  const user = userEvent.setup({ applyAccept: false, delay: null });
  renderWithProviders(<ContentTab />);
  return { api, user };
}

describe('Content tab: add form', () => {
  it('adds nothing without a title and a description, and says so', async () => {
    const { api, user } = setUp();
    await screen.findByText('Grace upon grace');
    await user.click(screen.getByRole('button', { name: 'Add Content' }));
    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Description is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toBeRequired();
    expect(api.calls('POST', '/api/featured-content')).toEqual([]);
  });

  it("adds content with the staff token and says 'Content added successfully'", async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    const { api, user } = setUp({
      'POST /api/featured-content': { status: 201, body: { ...sermon, id: 'c2', title: 'Morning Psalm' } },
    });
    await user.type(screen.getByLabelText('Title'), 'Morning Psalm');
    await user.type(screen.getByLabelText('Description'), 'Psalm 5 read slowly');
    await user.click(screen.getByRole('button', { name: 'Add Content' }));
    expect(await screen.findByText('Content added successfully')).toBeInTheDocument();
    const [post] = api.calls('POST', '/api/featured-content');
    expect(post!.body).toMatchObject({
      title: 'Morning Psalm',
      description: 'Psalm 5 read slowly',
      type: 'sermon',
      imageUrl: null,
    });
    expect(post!.headers.authorization).toBe('Bearer good-token');
    // The list is read again.
    await waitFor(() => expect(api.calls('GET', '/api/featured-content')).toHaveLength(2));
    expect(screen.getByLabelText('Title')).toHaveValue('');
  });

  it("shows 'Failed to add content' with the server's message", async () => {
    const { user } = setUp({
      'POST /api/featured-content': { status: 400, body: { message: 'Title is too long' } },
    });
    await user.type(screen.getByLabelText('Title'), 'Morning Psalm');
    await user.type(screen.getByLabelText('Description'), 'Psalm 5');
    await user.click(screen.getByRole('button', { name: 'Add Content' }));
    expect(await screen.findByText('Failed to add content')).toBeInTheDocument();
    expect(screen.getByText('Title is too long')).toBeInTheDocument();
  });
});

describe('Content tab: image upload', () => {
  const file = (name: string, type: string, size = 1024) => new File([new Uint8Array(size)], name, { type });

  it("refuses a file that is not an image before sending: 'Invalid file type'", async () => {
    const { api, user } = setUp();
    await user.upload(screen.getByLabelText('Image'), file('notes.txt', 'text/plain'));
    expect(await screen.findByText('Invalid file type')).toBeInTheDocument();
    expect(screen.getByText('Please upload an image file (JPEG, PNG, GIF, or WebP)')).toBeInTheDocument();
    expect(api.calls('POST', '/api/upload-image')).toEqual([]);
  });

  it("refuses an image over 5MB before sending: 'File too large'", async () => {
    const { api, user } = setUp();
    await user.upload(screen.getByLabelText('Image'), file('big.jpg', 'image/jpeg', 5 * 1024 * 1024 + 1));
    expect(await screen.findByText('File too large')).toBeInTheDocument();
    expect(screen.getByText('Please upload an image smaller than 5MB')).toBeInTheDocument();
    expect(api.calls('POST', '/api/upload-image')).toEqual([]);
  });

  it("uploads an image as multipart field 'image' and adds it with the content", async () => {
    sessionStorage.setItem('adminToken', 'good-token');
    const { api, user } = setUp({
      'POST /api/upload-image': { status: 200, body: { imageUrl: '/uploads/abc.webp' } },
      'POST /api/featured-content': { status: 201, body: sermon },
    });
    await user.upload(screen.getByLabelText('Image'), file('cross.png', 'image/png'));
    expect(await screen.findByText('Image uploaded successfully!')).toBeInTheDocument();
    const [upload] = api.calls('POST', '/api/upload-image');
    expect(upload!.body).toBeInstanceOf(FormData);
    expect((upload!.body as FormData).get('image')).toBeInstanceOf(File);
    expect(upload!.headers.authorization).toBe('Bearer good-token');
    expect(screen.getByAltText('Uploaded image preview')).toHaveAttribute('src', '/uploads/abc.webp');

    await user.type(screen.getByLabelText('Title'), 'With a picture');
    await user.type(screen.getByLabelText('Description'), 'And words');
    await user.click(screen.getByRole('button', { name: 'Add Content' }));
    await waitFor(() => expect(api.calls('POST', '/api/featured-content')).toHaveLength(1));
    expect(api.calls('POST', '/api/featured-content')[0]!.body).toMatchObject({
      imageUrl: '/uploads/abc.webp',
    });
  });

  it("shows 'Upload failed' with the server's message when the bytes are not an image", async () => {
    const { user } = setUp({
      'POST /api/upload-image': {
        status: 400,
        body: { message: 'Please upload an image file (JPEG, PNG, GIF, or WebP)' },
      },
    });
    await user.upload(screen.getByLabelText('Image'), file('renamed.png', 'image/png'));
    expect(await screen.findByText('Upload failed')).toBeInTheDocument();
    expect(screen.getByText('Please upload an image file (JPEG, PNG, GIF, or WebP)')).toBeInTheDocument();
  });

  it("falls back to 'Failed to upload image' when the server gives no message", async () => {
    const { user } = setUp({ 'POST /api/upload-image': { status: 502, body: 'Bad Gateway' } });
    await user.upload(screen.getByLabelText('Image'), file('cross.gif', 'image/gif'));
    expect(await screen.findByText('Upload failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to upload image')).toBeInTheDocument();
  });
});

describe('Content tab: list', () => {
  it('edits title and description in place, sending the other fields unchanged', async () => {
    const { api, user } = setUp({
      'PUT /api/featured-content/c1': { status: 200, body: { ...sermon, title: 'Grace and truth' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Grace upon grace' }));
    const form = screen.getByRole('form', { name: 'Edit Grace upon grace' });
    const title = within(form).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Grace and truth');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Content updated successfully')).toBeInTheDocument();
    expect(api.calls('PUT', '/api/featured-content/c1')[0]!.body).toEqual({
      title: 'Grace and truth',
      type: 'sermon',
      speaker: null,
      duration: null,
      description: 'John 1 in the morning service',
      imageUrl: '/uploads/grace.webp',
      audioUrl: null,
    });
    expect(screen.queryByRole('form', { name: 'Edit Grace upon grace' })).toBeNull();
  });

  it('cancels an edit without sending anything', async () => {
    const { api, user } = setUp();
    await user.click(await screen.findByRole('button', { name: 'Edit Grace upon grace' }));
    const form = screen.getByRole('form', { name: 'Edit Grace upon grace' });
    await user.clear(within(form).getByLabelText('Title'));
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Grace upon grace')).toBeInTheDocument();
    expect(api.calls('PUT', '/api/featured-content/c1')).toEqual([]);
  });

  it("shows 'Failed to update content' with the server's message", async () => {
    const { user } = setUp({
      'PUT /api/featured-content/c1': { status: 404, body: { message: 'Content not found' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Grace upon grace' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update content')).toBeInTheDocument();
    expect(screen.getByText('Content not found')).toBeInTheDocument();
  });

  it('deletes only after the confirmation', async () => {
    const { api, user } = setUp({ 'DELETE /api/featured-content/c1': { status: 200, body: { ok: true } } });
    await user.click(await screen.findByRole('button', { name: 'Delete Grace upon grace' }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByText('Are you sure you want to delete this content?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('DELETE', '/api/featured-content/c1')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Grace upon grace' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Content deleted successfully')).toBeInTheDocument();
    expect(api.calls('DELETE', '/api/featured-content/c1')).toHaveLength(1);
  });

  it("shows 'Failed to delete content' when the delete fails", async () => {
    const { user } = setUp({ 'DELETE /api/featured-content/c1': 'network-error' });
    await user.click(await screen.findByRole('button', { name: 'Delete Grace upon grace' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete content')).toBeInTheDocument();
    expect(screen.getByText(/could not be reached/)).toBeInTheDocument();
  });
});
