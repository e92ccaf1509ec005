import { describe, expect, it } from 'vitest';
import { addressKey, SIGN_IN_LIMITS, SignInThrottle, tooManyAttemptsMessage } from './sign-in-throttle.js';

const WINDOW = 15 * 60 * 1000;

function clockAt(start = 1_000_000) {
  const clock = { now: start };
  return {
    clock,
    throttle: new SignInThrottle(
      { ...SIGN_IN_LIMITS, perAccountAndAddress: 5, perAddress: 20, windowMs: WINDOW },
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

/** 40 addresses guessing one password each, 5 times, all within a second. */
const attackers = Array.from({ length: 40 }, (_, i) => `198.51.100.${i + 1}`);

describe('the limit per username from every address', () => {
  it.each([
    ['40 addresses x 5 guesses', 40, 5, (i: number) => `198.51.100.${i + 1}`],
    ['200 addresses x 1 guess', 200, 1, (i: number) => `100.64.${i}.1`],
    ['40 IPv6 networks x 5 guesses', 40, 5, (i: number) => `2001:db8:${i}::1`],
  ])('refuses all but 10 of %s at one username', (_case, addresses, guesses, address) => {
    const { throttle } = clockAt();
    let admitted = 0;
    for (let round = 0; round < guesses; round++)
      for (let i = 0; i < addresses; i++) if (throttle.begin('pastor', address(i))) admitted++;
    expect(admitted).toBe(SIGN_IN_LIMITS.perAccount);
    expect(throttle.retryAfterMs('pastor', '198.51.100.99')).toBe(SIGN_IN_LIMITS.accountHoldMs);
    // Another username is not held.
    expect(throttle.begin('deacon', '198.51.100.1')).toBe(true);
  });

  it('lets the real user in from a network they signed in from during the attack', () => {
    const { clock, throttle } = clockAt();
    expect(throttle.begin('pastor', '203.0.113.7')).toBe(true);
    throttle.succeeded('pastor', '203.0.113.7');
    clock.now += 20 * 24 * 60 * 60 * 1000;
    for (let round = 0; round < 5; round++)
      for (const address of attackers) throttle.begin('pastor', address);
    expect(throttle.begin('pastor', '198.51.100.200')).toBe(false);
    // Home, 20 days later: a typo and then the right password, while the attack goes on.
    expect(throttle.begin('pastor', '203.0.113.7')).toBe(true);
    expect(throttle.begin('pastor', '203.0.113.7')).toBe(true);
    throttle.succeeded('pastor', '203.0.113.7');
    // After 30 days without signing in there, the network is a stranger again.
    clock.now += 31 * 24 * 60 * 60 * 1000;
    for (let i = 0; i < 11; i++) throttle.begin('pastor', attackers[i]!);
    expect(throttle.begin('pastor', '203.0.113.7')).toBe(false);
  });

  it('lifts the hold after its short wait, which doubles with each hold in a day up to 15 minutes', () => {
    const { clock, throttle } = clockAt();
    const holds: number[] = [];
    for (let hold = 0; hold < 6; hold++) {
      let i = 0;
      while (throttle.begin('pastor', attackers[i++ % 40]!));
      holds.push(throttle.retryAfterMs('pastor', '198.51.100.250'));
      clock.now += holds.at(-1)! - 1;
      expect(throttle.begin('pastor', '198.51.100.250')).toBe(false);
      clock.now += 1;
      expect(throttle.begin('pastor', '198.51.100.250')).toBe(true);
    }
    expect(holds).toEqual([1, 2, 4, 8, 15, 15].map((m) => m * 60_000));
    // A day later it is short again.
    clock.now += 24 * 60 * 60 * 1000;
    for (let i = 0; i < 11; i++) throttle.begin('pastor', attackers[i]!);
    expect(throttle.retryAfterMs('pastor', '198.51.100.250')).toBe(60_000);
  });

  it('does not count the right password, from anywhere', () => {
    const { throttle } = clockAt();
    for (let i = 0; i < 30; i++) {
      expect(throttle.begin('pastor', attackers[i]!)).toBe(true);
      throttle.succeeded('pastor', attackers[i]!);
    }
  });
});
