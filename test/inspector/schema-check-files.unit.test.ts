import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vxmlSchemaCheck } from '../../src/inspector/index.js';

/** The schema check reads the schema set's own files and no other file a document names. */
describe('schema check and local files', () => {
  it('when a document names a local file as an external entity or DTD, then the check reads nothing of it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xxe-'));
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-VALUE');
    const doc = `<?xml version="1.0"?>
<!DOCTYPE vxml SYSTEM "file://${secret}" [<!ENTITY leak SYSTEM "file://${secret}">]>
<vxml xmlns="http://www.w3.org/2001/vxml" version="2.1"><form><block>&leak;</block></form></vxml>`;
    const r = await vxmlSchemaCheck(doc);
    expect(r.errors.join('\n')).not.toContain('TOP-SECRET-VALUE');
  });

  it('when many documents are checked in one call, then each is judged and named in the messages', async () => {
    const good =
      '<?xml version="1.0"?><vxml xmlns="http://www.w3.org/2001/vxml" version="2.1"><form><block>hi</block></form></vxml>';
    const bad = good.replace('<block>', '<bogus/><block>');
    expect(await vxmlSchemaCheck([good, good])).toEqual({ valid: true, errors: [] });
    const r = await vxmlSchemaCheck([good, bad]);
    expect(r.valid).toBe(false);
    expect(r.errors.join('\n')).toMatch(/doc1\.vxml:1: .*bogus/);
    expect(r.errors.join('\n')).not.toContain('doc0');
  });
});
