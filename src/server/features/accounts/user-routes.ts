import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createUserBodySchema,
  okResponseSchema,
  toggleStatusBodySchema,
  updateRoleBodySchema,
  userIdParamsSchema,
  userListSchema,
  userResponseSchema,
} from '../../../common/admin.js';
import { errorBodySchema } from '../../../common/http.js';
import { createUser, deleteUser, listUsers, setActive, updateRole } from './service.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** Creating accounts (any staff, SPEC.md section 6) and the superuser's User Management tab. */
export async function userRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/admin/create',
    {
      config: { access: 'staff' },
      schema: { body: createUserBodySchema, response: { 201: userResponseSchema, ...errors } },
    },
    async (request, reply) => {
      const user = await createUser(app.db, request.staffUser!, request.body);
      return reply.code(201).send({ user });
    },
  );

  api.get(
    '/admin/users',
    { config: { access: 'superuser' }, schema: { response: { 200: userListSchema, ...errors } } },
    async () => listUsers(app.db),
  );

  api.post(
    '/admin/update-role',
    {
      config: { access: 'superuser' },
      schema: { body: updateRoleBodySchema, response: { 200: userResponseSchema, ...errors } },
    },
    async (request) => ({ user: await updateRole(app.db, request.body.userId, request.body.role) }),
  );

  api.post(
    '/admin/toggle-status',
    {
      config: { access: 'superuser' },
      schema: { body: toggleStatusBodySchema, response: { 200: userResponseSchema, ...errors } },
    },
    async (request) => ({
      user: await setActive(app.db, request.staffUser!.id, request.body.userId, request.body.isActive),
    }),
  );

  api.delete(
    '/admin/users/:id',
    {
      config: { access: 'superuser' },
      schema: { params: userIdParamsSchema, response: { 200: okResponseSchema, ...errors } },
    },
    async (request) => {
      await deleteUser(app.db, request.staffUser!.id, request.params.id);
      return { ok: true as const };
    },
  );
}
