/**
 * A reason the server will not serve, stated for the operator in one line (no stack trace):
 * main.ts and cluster.ts print the message and exit with code 2, like a configuration error.
 */
export class StartupRefusal extends Error {}
