import { parseArgs } from 'node:util';
import { MIN_PASSWORD_LENGTH, MIN_USERNAME_LENGTH, roleSchema } from '../../common/accounts.js';
import { AccountError, createAdminUser, resetPassword } from '../features/accounts/service.js';
import { fail, openStationDatabase } from './shell.js';

const USAGE = `Usage:
  npm run admin -- create --username U --password P [--role admin|superuser|presenter]
  npm run admin -- reset-password --username U --password P`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    username: { type: 'string' },
    password: { type: 'string' },
    role: { type: 'string', default: 'admin' },
  },
});
const [command] = positionals;
const { username = '', password = '' } = values;
if (command !== 'create' && command !== 'reset-password') fail(USAGE);
if (username.length < MIN_USERNAME_LENGTH)
  fail(`Username must be at least ${MIN_USERNAME_LENGTH} characters`);
if (password.length < MIN_PASSWORD_LENGTH)
  fail(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
const role = roleSchema.safeParse(values.role);
if (!role.success) fail('Role must be admin, superuser or presenter');

const { database } = await openStationDatabase();
try {
  if (command === 'create') {
    await createAdminUser(database.db, { username, password, role: role.data });
    console.log(`Created ${role.data} "${username}".`);
  } else {
    await resetPassword(database.db, username, password);
    console.log(`Password for "${username}" was reset; their sessions were signed out.`);
  }
} catch (error) {
  if (error instanceof AccountError) fail(error.message);
  throw error;
} finally {
  await database.close();
}
