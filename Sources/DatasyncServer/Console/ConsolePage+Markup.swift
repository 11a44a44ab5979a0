extension ConsolePage {
  /// The start of the page, up to its style.
  static let markupHead = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Datasync console</title>
    <link rel="icon" href="data:,">

    """#

  /// The page's fixed elements: the location form, the connection state and the tree.
  static let markupBody = #"""
    </head>
    <body>
    <header>
      <h1>Datasync <span>console</span></h1>
      <form id="location" aria-label="Location">
        <label>Namespace <input id="ns" placeholder="default" autocomplete="off"
          spellcheck="false"></label>
        <label class="wide">Path <input id="path" value="/" autocomplete="off"
          spellcheck="false"></label>
        <label>Token <input id="token" type="password" placeholder="none"
          autocomplete="off"></label>
        <button type="submit">Open</button>
      </form>
      <div id="status" class="status" role="status" aria-live="polite" data-state="connecting">
        <span class="dot" aria-hidden="true"></span><span id="status-text">Connecting…</span>
      </div>
    </header>
    <main>
      <p class="help">Arrow keys move and expand, Enter edits a value, Delete deletes.
        Changes made elsewhere appear as they happen.</p>
      <ul id="tree" role="tree" aria-label="Data"></ul>
    </main>

    """#
}
