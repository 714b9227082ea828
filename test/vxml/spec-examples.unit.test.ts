import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateVxml } from '../helpers/vxml-schema.js';
import { examplesDir } from '../sandbox-caller/gateway-stub.js';

const examples = examplesDir();

describe('the XSD check itself', () => {
  it('when the checked spec examples are validated, then every one passes', async () => {
    const files = readdirSync(examples).filter((f) => f.endsWith('.vxml'));
    expect(files.length).toBeGreaterThan(5);
    const r = await validateVxml(files.map((f) => readFileSync(join(examples, f), 'utf8')));
    expect(r.errors).toEqual([]);
    expect(r.valid).toBe(true);
  });

  it('when a document has an unknown element, then the check fails', async () => {
    const bad =
      '<?xml version="1.0"?><vxml version="2.1" xmlns="http://www.w3.org/2001/vxml"><form><bogus/></form></vxml>';
    const r = await validateVxml(bad);
    expect(r.valid).toBe(false);
  });

  it('when a transfer has type="bridged", then the check fails', async () => {
    const bad =
      '<?xml version="1.0"?><vxml version="2.1" xmlns="http://www.w3.org/2001/vxml"><form><transfer name="x" dest="tel:+1" type="bridged"/></form></vxml>';
    expect((await validateVxml(bad)).valid).toBe(false);
  });
});
