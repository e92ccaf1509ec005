import { describe, expect, it } from 'vitest';
import { addressKey, SignInThrottle, tooManyAttemptsMessage } from './sign-in-throttle.js';

const WINDOW = 15 * 60 * 1000;

function clockAt(start = 1_000_000) {
  const clock = { now: start };
  return {
    clock,
    throttle: new SignInThrottle(
      { perAccountAndAddress: 5, perAddress: 20, windowMs: WINDOW },
      () => clock.now,
    ),
  };
}

describe('SignInThrottle', () => {
  it('holds a username at an address after 5 attempts until the oldest leaves the 15-minute window', () => {
    const { clock, throttle } = clockAt();
    for (let i = 0; i < 5; i++) {
      expect(throttle.begin('Mary', '192.0.2.1')).toBe(true);
      clock.now += 60_000;
    }
    expect(throttle.begin('mary', '192.0.2.1')).toBe(false);
    expect(throttle.retryAfterMs('mary', '192.0.2.1')).toBe(WINDOW - 5 * 60_000);
    expect(throttle.begin('mary', '192.0.2.2')).toBe(true);
    clock.now += WINDOW - 5 * 60_000;
    expect(throttle.begin('mary', '192.0.2.1')).toBe(true);
    expect(throttle.begin('mary', '192.0.2.1')).toBe(false);
  });

  it('counts an attempt when it starts, so a parallel burst cannot slip past', () => {
    const { throttle } = clockAt();
    const admitted = Array.from({ length: 100 }, () => throttle.begin('mary', '192.0.2.1')).filter(Boolean);
    expect(admitted).toHaveLength(5);
  });

  it('forgives the failures of a username at an address once it signs in there', () => {
    const { throttle } = clockAt();
    for (let i = 0; i < 4; i++) throttle.begin('mary', '192.0.2.1');
    throttle.begin('mary', '192.0.2.1');
    throttle.succeeded('mary', '192.0.2.1');
    expect(throttle.retryAfterMs('mary', '192.0.2.1')).toBe(0);
    for (let i = 0; i < 5; i++) expect(throttle.begin('mary', '192.0.2.1')).toBe(true);
  });

  it('holds an address after 20 attempts whatever the usernames', () => {
    const { throttle } = clockAt();
    for (let i = 0; i < 20; i++) expect(throttle.begin(`user${i}`, '192.0.2.9')).toBe(true);
    expect(throttle.begin('someone-new', '192.0.2.9')).toBe(false);
    expect(throttle.begin('someone-new', '192.0.2.10')).toBe(true);
  });

  it('treats one IPv6 /64 as one address, and IPv4-mapped addresses as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::ffff:192.0.2.5')).toBe('192.0.2.5');
    expect(addressKey('192.0.2.5')).toBe('192.0.2.5');
    const { throttle } = clockAt();
    for (let i = 0; i < 5; i++) throttle.begin('mary', `2001:db8:1:2::${i + 1}`);
    expect(throttle.begin('mary', '2001:db8:1:2:ffff::9')).toBe(false);
  });

  it('says how long to wait in whole minutes', () => {
    expect(tooManyAttemptsMessage(14 * 60_000 + 1)).toBe(
      'Too many sign-in attempts. Please wait 15 minutes and try again.',
    );
    expect(tooManyAttemptsMessage(20_000)).toBe(
      'Too many sign-in attempts. Please wait 1 minute and try again.',
    );
  });
});
