import { describe, expect, it } from 'vitest';
import { formatParams, maskedUrl } from '../../sandbox/transcript.js';

describe('the transcript hides credentials', () => {
  it('when a submit carries a PIN, a secret and a token, then each is printed masked beside the other values', () => {
    const line = formatParams({
      message: 'hello there',
      pin: '4321',
      secret: '987654',
      token: 'eyJhbGciOiJIUzI1NiJ9.eyJhIjoxfQ.sig-sig-sig',
    });
    expect(line).toBe('message="hello there" pin=*** secret=*** token=eyJhbG***');
  });

  it('when a URL carries a token in its query, then the printed URL keeps everything but the token', () => {
    expect(maskedUrl('http://h:1/ivr/hooks/st-1?token=eyJhbGciOiJIUzI1NiJ9.payload.signature&x=1')).toBe(
      'http://h:1/ivr/hooks/st-1?token=eyJhbG***&x=1',
    );
  });
});
