import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import errors from './errors.js';

describe('error handler', () => {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(errors);
    app.post('/echo', { schema: { body: z.object({ name: z.string().min(1) }) } }, async (req) => req.body);
    app.get('/boom', async () => {
      throw new Error('connection string postgres://secret@db');
    });
    app.get('/teapot', async () => {
      throw Object.assign(new Error('I am a teapot'), { statusCode: 418 });
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it.each([
    ['{"name": ""}', 'application/json', /name/],
    ['{"other": 1}', 'application/json', /name/],
    ['{not json', 'application/json', /not valid JSON/],
    ['', 'application/json', /empty/],
    ['name=x', 'text/csv', /Unsupported content type/],
  ])('answers 400/415 with a readable message for %j', async (payload, type, message) => {
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      payload,
      headers: { 'content-type': type },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().message).toMatch(message);
  });

  it('keeps the message of a deliberate client error', async () => {
    const res = await app.inject({ url: '/teapot' });
    expect(res.statusCode).toBe(418);
    expect(res.json()).toEqual({ message: 'I am a teapot' });
  });

  it('never leaks internals on a 5xx', async () => {
    const res = await app.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    expect(res.json().message).toMatch(/went wrong/);
  });
});
