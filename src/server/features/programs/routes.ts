import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../common/http.js';
import {
  type Airs,
  ONE_OFF_NOT_FOUND,
  oneOffBodySchema,
  oneOffListSchema,
  oneOffRangeQuerySchema,
  oneOffSchema,
  overlapCheckSchema,
  PROGRAM_NOT_FOUND,
  programBodySchema,
  programIdParamsSchema,
  programPatchSchema,
  programSchema,
  scheduledProgramSchema,
  weekScheduleSchema,
} from '../../../common/programs.js';
import {
  checkNewProgram,
  checkOneOff,
  checkProgramChange,
  createOneOff,
  createProgram,
  deleteOneOff,
  deleteProgram,
  listOneOffs,
  listTodaysPrograms,
  SCHEDULE_CHANGED_TOPIC,
  updateProgram,
  weekSchedule,
} from './service.js';

const staffErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

const STATUS = { invalid: 400, 'not-found': 404, overlap: 409 } as const;

/** A service's refusal as its answer: bad input 400, unknown id 404, an unconfirmed overlap 409. */
const refuse = (reply: FastifyReply, failure: { reason: keyof typeof STATUS; message: string }) =>
  reply.code(STATUS[failure.reason]).send({ message: failure.message });

/** Today's programmes for everyone; the weekly schedule and its one-off dates for staff (the Schedule tab). */
export async function programRoutes(
  app: FastifyInstance,
  opts: {
    /** Why what a programme airs cannot be saved (a recording or playlist not there), or null. */
    airsProblem?: (airs: Airs) => Promise<string | null>;
  } = {},
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { access: 'staff' } as const;
  /** Refuses a body that names a recording, playlist or presenter that is not there; true when it did. */
  const badAirs = async (reply: FastifyReply, body: { airs?: Airs }) => {
    const problem = body.airs && (await opts.airsProblem?.(body.airs));
    if (problem) refuse(reply, { reason: 'invalid', message: problem });
    return !!problem;
  };
  /** Tells what reads the schedule (on-air, on every instance) that a save changed it. */
  const changed = () => app.bus.publish(SCHEDULE_CHANGED_TOPIC, { at: Date.now() });

  api.get('/programs/today', { schema: { response: { 200: z.array(programSchema) } } }, async () =>
    listTodaysPrograms(app.db, app.station().timeZone),
  );

  api.get(
    '/programs',
    { config: staff, schema: { response: { 200: weekScheduleSchema, ...staffErrors } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return weekSchedule(app.db, app.station().timeZone);
    },
  );

  api.post(
    '/programs',
    {
      config: staff,
      schema: { body: programBodySchema, response: { 201: scheduledProgramSchema, ...staffErrors } },
    },
    async (request, reply) => {
      if (await badAirs(reply, request.body)) return reply;
      const saved = await createProgram(app.db, request.body);
      if (saved.ok) await changed();
      return saved.ok ? reply.code(201).send(saved.value) : refuse(reply, saved);
    },
  );

  // Asked before a save, so an overlap is a question for staff and not a refused request (decision 015).
  api.post(
    '/programs/check',
    {
      config: staff,
      schema: { body: programBodySchema, response: { 200: overlapCheckSchema, ...staffErrors } },
    },
    async (request) => ({ overlaps: await checkNewProgram(app.db, request.body) }),
  );

  api.post(
    '/programs/:id/check',
    {
      config: staff,
      schema: {
        params: programIdParamsSchema,
        body: programPatchSchema,
        response: { 200: overlapCheckSchema, ...staffErrors },
      },
    },
    async (request, reply) => {
      const checked = await checkProgramChange(app.db, request.params.id, request.body);
      return checked.ok ? { overlaps: checked.value } : refuse(reply, checked);
    },
  );

  api.patch(
    '/programs/:id',
    {
      config: staff,
      schema: {
        params: programIdParamsSchema,
        body: programPatchSchema,
        response: { 200: scheduledProgramSchema, ...staffErrors },
      },
    },
    async (request, reply) => {
      if (await badAirs(reply, request.body)) return reply;
      const saved = await updateProgram(app.db, request.params.id, request.body);
      if (saved.ok) await changed();
      return saved.ok ? saved.value : refuse(reply, saved);
    },
  );

  api.delete(
    '/programs/:id',
    {
      config: staff,
      schema: { params: programIdParamsSchema, response: { 204: z.null(), ...staffErrors } },
    },
    async (request, reply) => {
      if (!(await deleteProgram(app.db, request.params.id)))
        return reply.code(404).send({ message: PROGRAM_NOT_FOUND });
      await changed();
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/programs/one-offs',
    {
      config: staff,
      schema: { querystring: oneOffRangeQuerySchema, response: { 200: oneOffListSchema, ...staffErrors } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const listed = await listOneOffs(app.db, { ...request.query, timeZone: app.station().timeZone });
      return listed.ok ? listed.value : refuse(reply, listed);
    },
  );

  api.post(
    '/programs/one-offs',
    {
      config: staff,
      schema: { body: oneOffBodySchema, response: { 201: oneOffSchema, ...staffErrors } },
    },
    async (request, reply) => {
      if (request.body.kind !== 'cancel' && (await badAirs(reply, request.body))) return reply;
      const saved = await createOneOff(app.db, request.body, app.station().timeZone);
      if (saved.ok) await changed();
      return saved.ok ? reply.code(201).send(saved.value) : refuse(reply, saved);
    },
  );

  api.post(
    '/programs/one-offs/check',
    {
      config: staff,
      schema: { body: oneOffBodySchema, response: { 200: overlapCheckSchema, ...staffErrors } },
    },
    async (request, reply) => {
      const checked = await checkOneOff(app.db, request.body, app.station().timeZone);
      return checked.ok ? { overlaps: checked.value } : refuse(reply, checked);
    },
  );

  api.delete(
    '/programs/one-offs/:id',
    {
      config: staff,
      schema: { params: programIdParamsSchema, response: { 204: z.null(), ...staffErrors } },
    },
    async (request, reply) => {
      if (!(await deleteOneOff(app.db, request.params.id)))
        return reply.code(404).send({ message: ONE_OFF_NOT_FOUND });
      await changed();
      return reply.code(204).send(null);
    },
  );
}
