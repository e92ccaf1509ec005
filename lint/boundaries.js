// The rooms of src/ and who may import whom (STYLE.md, docs/architecture.md), as import-x zones.
// Features are read from the tree, so a new capability folder is fenced the moment it exists.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function featuresIn(dir) {
  const path = `${root}/${dir}`;
  if (!existsSync(path)) return [];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/** Each feature may import its own files and only the public file of any other feature. */
function featureZones(dir, publicFile) {
  const names = featuresIn(dir);
  return names.map((name) => ({
    target: `./${dir}/${name}`,
    from: `./${dir}`,
    except: [
      `./${name}`,
      ...names.filter((other) => other !== name).map((other) => `./${other}/${publicFile}`),
    ],
    message: `a feature reaches another only through its ${publicFile}`,
  }));
}

export const boundaryZones = [
  {
    target: './src/common',
    from: ['./src/server', './src/client'],
    message: 'common stays free of server and client code',
  },
  { target: './src/server', from: './src/client', message: 'the server never imports client code' },
  { target: './src/client', from: './src/server', message: 'the client never imports server code' },
  {
    target: ['./src/client/components', './src/client/lib'],
    from: './src/client/features',
    message: 'components and lib are below the features: they import no feature',
  },
  {
    target: './src/client/features',
    from: './src/client/app',
    message: 'features do not import the pages composed from them',
  },
  {
    target: './src/server/radio',
    from: ['./src/server/db', './src/server/features'],
    message: 'the radio engine is handed storage interfaces; it imports no database or feature code',
  },
  {
    target: './src/server/plugins',
    from: './src/server/features',
    message: 'plugins are handed what they need by app.ts',
  },
  ...featureZones('src/client/features', 'index.ts'),
  ...featureZones('src/server/features', 'service.ts'),
];
