/** An ECMAScript value as text, for speaking or submitting: nothing as empty, objects as JSON, the rest as ToString. */
export function valueText(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return '';
    case 'object':
      return value === null ? '' : JSON.stringify(value);
    default:
      return String(value);
  }
}
