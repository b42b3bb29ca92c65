/** A 400-character text with one word edited near its end: the case the plan used to cut away. */
export const LONG_BEFORE = `${'Rosetta, tulip or heart? Tell us your favourite latte art. '.repeat(6)}Saturday tasting starts at nine, bring a friend and a cup.`;
export const LONG_AFTER = LONG_BEFORE.replace('at nine', 'at ten');
