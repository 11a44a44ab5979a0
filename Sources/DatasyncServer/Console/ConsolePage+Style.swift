extension ConsolePage {
  /// The page's style: fixed row heights and reserved space, so that nothing moves while
  /// events stream in; the header wraps on a narrow window.
  static let style = #"""
    :root {
      color-scheme: light;
      --bg: #f5f6f8; --panel: #fff; --line: #d9dee5; --text: #1c2430; --muted: #5d6877;
      --accent: #2563c9; --select: #e6eefc; --flash: #ffe98a; --error: #b3261e;
      --live: #1e8e3e; --waiting: #c77700;
      --mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
      font: 14px/1.4 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
    }
    * { box-sizing: border-box; }
    html { scroll-padding-top: 120px; }
    body { margin: 0; background: var(--bg); color: var(--text); }
    header {
      position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap;
      align-items: flex-end; gap: 10px 20px; padding: 10px 20px;
      background: var(--panel); border-bottom: 1px solid var(--line);
    }
    h1 { margin: 0 0 4px; font-size: 17px; white-space: nowrap; }
    h1 span { font-weight: 400; color: var(--muted); }
    #location { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 8px; flex: 1 1 auto; }
    #location label {
      display: flex; flex-direction: column; gap: 2px; font-size: 12px; color: var(--muted);
    }
    #location label.wide { flex: 1 1 16em; max-width: 28em; }
    input, textarea, button { font: inherit; color: inherit; }
    input, textarea {
      padding: 5px 8px; border: 1px solid var(--line); border-radius: 5px;
      background: var(--panel); font-family: var(--mono); font-size: 13px; min-width: 0;
    }
    #ns, #token { width: 11em; }
    input:focus, textarea:focus, button:focus-visible {
      outline: 2px solid var(--accent); outline-offset: 1px;
    }
    button {
      padding: 4px 10px; border: 1px solid var(--line); border-radius: 5px;
      background: var(--panel); font-size: 13px; cursor: pointer;
    }
    button:hover { border-color: var(--accent); }
    button.primary, #location button { background: var(--accent); border-color: var(--accent);
      color: #fff; }
    button.danger { color: var(--error); }
    button.danger.editor, form.delete button.danger { background: var(--error); color: #fff;
      border-color: var(--error); }
    button:disabled { opacity: .5; cursor: default; }
    .status {
      display: flex; align-items: center; gap: 8px; width: 19em; height: 30px;
      font-size: 13px; color: var(--muted); white-space: nowrap; overflow: hidden;
    }
    #status-text { overflow: hidden; text-overflow: ellipsis; }
    .dot { flex: none; width: 10px; height: 10px; border-radius: 50%; background: var(--waiting); }
    .status[data-state=live] .dot { background: var(--live); }
    .status[data-state=live] { color: var(--live); }
    .status[data-state=refused] .dot { background: var(--error); }
    .status[data-state=refused] { color: var(--error); }
    main { padding: 12px 20px 40px; }
    .help { margin: 0 0 10px; font-size: 12px; color: var(--muted); }
    #tree {
      margin: 0; padding: 6px; list-style: none; background: var(--panel);
      border: 1px solid var(--line); border-radius: 8px;
    }
    #tree ul { margin: 0 0 0 13px; padding: 0 0 0 12px; list-style: none;
      border-left: 1px solid var(--line); }
    #tree ul:empty { display: none; }
    li[role=treeitem] { outline: none; }
    .row {
      display: flex; align-items: center; gap: 8px; height: 28px; padding: 0 6px;
      border-radius: 5px; white-space: nowrap;
    }
    .row:hover { background: #f0f3f7; }
    li[aria-selected=true] > .row { background: var(--select); }
    li[role=treeitem]:focus > .row { box-shadow: inset 0 0 0 2px var(--accent); }
    .toggle { flex: none; width: 14px; text-align: center; color: var(--muted); cursor: pointer;
      user-select: none; }
    .key { flex: 0 1 auto; max-width: 45%; overflow: hidden; text-overflow: ellipsis;
      font-family: var(--mono); font-weight: 600; }
    .value { flex: 1 1 0; min-width: 0; overflow: hidden; text-overflow: ellipsis;
      font-family: var(--mono); }
    .value.string { color: #08733a; }
    .value.number { color: #1d4fb8; }
    .value.boolean { color: #8e24aa; }
    .value.null, .value.object { color: var(--muted); }
    .actions { flex: none; display: flex; gap: 4px; visibility: hidden; }
    .actions button { padding: 1px 8px; font-size: 12px; }
    .row:hover .actions, li[aria-selected=true] > .row .actions { visibility: visible; }
    li.more .row { padding-left: 28px; }
    .load-more { border-style: dashed; color: var(--accent); }
    @keyframes changed { from { background: var(--flash); } to { background: transparent; } }
    .row.changed { animation: changed 1.2s ease-out; }
    .slot { margin-left: 28px; }
    .editor-slot:empty, .error[hidden] { display: none; }
    .editor { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin: 4px 0 6px; }
    .editor .json { flex: 1 1 18em; }
    .editor .key-input { flex: 0 1 14em; }
    .editor textarea { flex: 1 1 100%; min-height: 8em; resize: vertical; }
    .hint { font-size: 12px; color: var(--error); }
    .question { font-weight: 600; }
    .error {
      margin: 2px 0 6px; padding: 4px 8px; border-left: 3px solid var(--error);
      background: #fdecea; color: var(--error); font-size: 13px; overflow-wrap: anywhere;
    }
    @media (max-width: 700px) {
      header { position: static; padding: 8px 12px; }
      html { scroll-padding-top: 0; }
      #location label, #location label.wide { flex: 1 1 100%; max-width: none; }
      #ns, #token { width: auto; }
      .status { width: 100%; }
      main { padding: 8px 8px 40px; }
      .key { max-width: 55%; }
      .actions { display: none; }
      li[aria-selected=true] > .row { flex-wrap: wrap; height: auto; min-height: 28px;
        padding: 4px 6px; }
      li[aria-selected=true] > .row .actions { display: flex; flex: 1 1 100%; flex-wrap: wrap;
        padding-left: 22px; }
    }

    """#
}
