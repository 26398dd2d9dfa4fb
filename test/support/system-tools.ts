import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** One line of `.ci/system-packages`: a command a test spawns, the Debian package that brings it, what needs it. */
export interface SystemTool {
  command: string;
  debianPackage: string;
  neededBy: string;
}

/** `.ci/system-packages`, the one list that `.ci/run` installs from and that this file names packages from. */
export function systemTools(): SystemTool[] {
  return fs
    .readFileSync(path.join(ROOT, '.ci/system-packages'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [command = '', debianPackage = '', ...neededBy] = line.trim().split(/\s+/);
      return { command, debianPackage, neededBy: neededBy.join(' ') };
    });
}

/** The absolute path of `command` on PATH, or undefined. */
function onPath(command: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((directory) => path.join(directory, command))
    .find((candidate) => {
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        return fs.statSync(candidate).isFile();
      } catch {
        return false;
      }
    });
}

/**
 * The path of a system tool a test spawns. A missing one fails the test with a sentence naming the
 * package to install, never a bare `spawn … ENOENT` and never a silent skip: a fresh machine that
 * lacks it must say what to do (decision record 0089).
 */
export function requireSystemTool(command: string): string {
  const tool = systemTools().find((listed) => listed.command === command);
  if (!tool)
    throw new Error(`${command} is not listed in .ci/system-packages: add it there, so that .ci/run installs it`);
  const found = onPath(command);
  if (found) return found;
  throw new Error(
    `${command} is not installed on this machine; it is needed by ${tool.neededBy}. ` +
      `Install the Debian package ${tool.debianPackage} (apt-get install -y ${tool.debianPackage}); .ci/run installs every package listed in .ci/system-packages.`,
  );
}
