/**
 * The style of the editing controls, added to the page only where it edits (`watch --calendar`):
 * the bar with "New draft" and the status line, the editor's fields, and where a card can go.
 * It uses the page's colours (page-style.ts).
 */
export const EDIT_STYLE = `
.edit-bar { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; padding: 0 20px 8px; }
.edit-status { font-size: 12.5px; color: var(--ink-2); overflow-wrap: anywhere; }
.edit-status:empty { display: none; }
.btn.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
.edit-actions { display: flex; gap: 8px; flex-wrap: wrap; margin: 12px 0; }
.editor { display: flex; flex-direction: column; gap: 12px; }
.edit-field { display: flex; flex-direction: column; gap: 4px; font-size: 12.5px; color: var(--ink-2); border: 0; padding: 0; }
.edit-field input, .edit-field textarea { font: inherit; font-size: 14px; color: var(--ink); border: 1px solid var(--line); border-radius: 7px; padding: 6px 8px; }
.edit-field textarea { min-height: 9em; resize: vertical; unicode-bidi: plaintext; }
.edit-account { font-size: 13px; color: var(--ink); display: inline-flex; gap: 4px; align-items: center; margin-right: 12px; }
.edit-options { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; margin: 2px 0 8px 22px; font-size: 12.5px; }
.edit-options[hidden] { display: none; }
.edit-options small { flex-basis: 100%; color: var(--ink-3); }
.edit-option { display: inline-flex; gap: 4px; align-items: center; }
.edit-options input { font: inherit; border: 1px solid var(--line); border-radius: 6px; padding: 3px 6px; width: 10em; }
.edit-option.edit-list { flex-basis: 100%; align-items: flex-start; }
.edit-option.edit-list textarea { flex: 1; }
.edit-own { flex-basis: 100%; display: flex; flex-direction: column; gap: 2px; }
.edit-field .edit-options textarea { font: inherit; font-size: 13px; border: 1px solid var(--line); border-radius: 6px; padding: 3px 6px; min-width: 10em; min-height: 0; resize: vertical; }
.edit-own textarea { width: 100%; box-sizing: border-box; }
.edit-media-list { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 8px; }
.edit-media-item { display: flex; gap: 10px; align-items: flex-start; }
.edit-media-item .thumb { width: 72px; height: 72px; flex: none; }
.edit-media-body { display: flex; flex-direction: column; gap: 4px; min-width: 0; flex: 1; color: var(--ink); }
.edit-media-body .mono { overflow-wrap: anywhere; }
.edit-media-actions { display: flex; gap: 6px; flex-wrap: wrap; }
.edit-media-add { align-self: flex-start; position: relative; }
.edit-media input[type="file"] { position: absolute; width: 1px; height: 1px; opacity: 0; overflow: hidden; }
.edit-media label.btn:focus-within { outline: 2px solid var(--accent); outline-offset: 2px; }
.edit-warning[hidden] { display: none; }
.editor .btn:disabled { opacity: 0.45; cursor: default; }
.edit-message, .edit-warning { border: 1px solid #e8b4b4; background: #fff1f1; color: #8a1f1f; border-radius: 7px; padding: 8px 10px; font-size: 13px; }
.card[draggable="true"] { cursor: grab; }
.card[data-moving-to] { outline: 2px dashed var(--accent); outline-offset: 1px; }
.drop-here { outline: 2px dashed var(--accent); outline-offset: -2px; background: #eef3ff; position: relative; }
/* The time a drop here gives, shown before the drop. */
.drop-here[data-drop-at]::before { content: "→ " attr(data-drop-at); position: absolute; top: 3px; right: 4px; z-index: 2; background: var(--accent); color: #fff; font-size: 12px; font-weight: 650; line-height: 18px; padding: 0 7px; border-radius: 999px; pointer-events: none; }
.move-to { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 0 0 12px; font-size: 13px; color: var(--ink-2); }
.move-to input { font: inherit; font-size: 14px; color: var(--ink); border: 1px solid var(--line); border-radius: 7px; padding: 5px 8px; }
@media (max-width: 699px) {
  .move-to input, .edit-field input, .edit-account { min-height: 44px; }
  .edit-account input { width: 20px; height: 20px; }
}
`;
