/**
 * A traveller's `nameAsInPassport`: A-Z words, either as the machine-readable zone writes them
 * (`TAN<<MEI<LIN`: the surname, `<<`, the given names joined by `<`) or as plain words, given names
 * first (`MEI LIN TAN`). The contract admits nothing else.
 */

/** As a checkpoint reads it beside the native-script name: `TAN, MEI LIN` for the zone's form, the words as given otherwise. */
export function printedPassportName(nameAsInPassport: string): string {
  const [surname = '', given] = nameAsInPassport.split('<<');
  if (given === undefined) return nameAsInPassport.replace(/</g, ' ');
  return `${surname.replace(/</g, ' ')}, ${given.replace(/</g, ' ')}`;
}

/** The same name as given names first and surname last, for the initials (traveller-disclosure.ts). */
export function passportNameInReadingOrder(nameAsInPassport: string): string {
  const [surname = '', given] = nameAsInPassport.split('<<');
  if (given === undefined) return nameAsInPassport.replace(/</g, ' ');
  // A surname of several words (KELLER<SCHMIDT) is one surname: joined, its initial is its first letter.
  return `${given.replace(/</g, ' ')} ${surname.replace(/</g, '-')}`;
}
