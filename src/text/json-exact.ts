/**
 * Whether `JSON.parse(JSON.stringify(value))` gives back a value equal to `value` in every respect a
 * structured clone keeps: only strings, booleans, null, finite numbers other than -0, dense arrays
 * and plain objects, with no property set to `undefined`. Such a value can cross between threads as
 * JSON text, which costs a fraction of a structured clone.
 */
export function survivesJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index++) if (!(index in value) || !survivesJson(value[index])) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key of Object.keys(value)) if (!survivesJson((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}
