/**
 * An operator command refused by a business rule, thrown inside the command's transaction so
 * nothing is changed. The command line prints its message and exits 1.
 */
export class OperatorRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorRefusal';
  }
}
