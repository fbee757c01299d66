import { type Config, ConfigError, loadConfig } from '../config.ts';

/** Says what is wrong and ends the command. */
export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The server's settings; a bad one ends the command with the server's message, not a stack trace. */
export function loadConfigOrFail(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}
