import { describe, expect, it } from 'vitest';
import { escapeHtml, html, jsonForScript, scriptElement, trusted } from '../../src/calendar/escape.js';

describe('the page escaping helper', () => {
  it('escapes text and attribute values, and leaves nested html alone', () => {
    const caption = '<script>alert("x")</script> & \'quotes\'';
    expect(escapeHtml(caption)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;');
    const inner = html`<b>${caption}</b>`;
    expect(html`<p title="${caption}">${inner}${[1, null, false, undefined, 'x']}</p>`.toString()).toBe(
      `<p title="${escapeHtml(caption)}"><b>${escapeHtml(caption)}</b>1x</p>`,
    );
    expect(html`${trusted('<hr>')}`.toString()).toBe('<hr>');
  });

  it('embeds JSON that no text can end early, and that parses back unchanged', () => {
    const value = { text: '</script><script>alert(1)</script> <!-- & \u2028\u2029 >' };
    const embedded = jsonForScript(value).toString();
    expect(embedded).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(embedded)).toEqual(value);
    expect(scriptElement('application/json', 'data', jsonForScript(value)).toString()).toBe(`<script type="application/json" id="data">${embedded}</script>`);
  });
});
