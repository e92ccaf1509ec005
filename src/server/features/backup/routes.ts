import type { FastifyInstance } from 'fastify';
import { backupFileName, createBackup } from './service.js';

/** GET /api/admin/backup (superusers): the whole station, database and uploads, as one archive. */
export async function backupRoutes(app: FastifyInstance) {
  app.get('/admin/backup', { config: { access: 'superuser' } }, async (_request, reply) => {
    const archive = await createBackup(app.db, app.config.dataDir);
    return reply
      .header('Content-Type', 'application/gzip')
      .header('Content-Disposition', `attachment; filename="${backupFileName()}"`)
      .header('Cache-Control', 'no-store')
      .send(archive);
  });
}
