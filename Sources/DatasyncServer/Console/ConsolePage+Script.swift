extension ConsolePage {
  /// The console's behaviour, in plain JavaScript.
  ///
  /// The displayed location has one `EventSource` (`shallow=true`, the token as `?auth=`);
  /// its first page is read at once, and the first `put` of each connection is the moment to
  /// read again over REST what is shown (events missed while disconnected are in that read);
  /// later `put` and `patch` events change the tree in place. Children are read a page at a
  /// time (`shallow=true&orderBy="$key"&limitToFirst=…&startAt=…`), never a whole subtree.
  /// Events that arrive while a page is being read are kept and applied again on top of the
  /// page once it arrives, so a page that was read before an event never hides it. Writes
  /// change nothing locally: what the server stores comes back through the stream.
  static let script = #"""
    "use strict";
    (() => {
    const PAGE = 50;
    const TOKEN_KEY = "datasync-console-token";
    const byId = (id) => document.getElementById(id);
    const tree = byId("tree");
    const statusBox = byId("status");
    const statusText = byId("status-text");
    const settings = { ns: "", path: "/", token: sessionStorage.getItem(TOKEN_KEY) || "" };

    // Keys and paths: integer keys first in numeric order, then the others by code point.
    const INT64_MIN = -(2n ** 63n);
    const INT64_MAX = 2n ** 63n - 1n;
    function integerKey(key) {
      if (!/^-?[0-9]+$/.test(key)) return null;
      const number = BigInt(key);
      return number >= INT64_MIN && number <= INT64_MAX ? number : null;
    }
    function compareText(a, b) {
      let i = 0;
      let j = 0;
      while (i < a.length && j < b.length) {
        const x = a.codePointAt(i);
        const y = b.codePointAt(j);
        if (x !== y) return x < y ? -1 : 1;
        i += x > 0xffff ? 2 : 1;
        j += y > 0xffff ? 2 : 1;
      }
      if (i < a.length) return 1;
      return j < b.length ? -1 : 0;
    }
    function compareKeys(a, b) {
      const x = integerKey(a);
      const y = integerKey(b);
      if (x !== null && y !== null) {
        if (x !== y) return x < y ? -1 : 1;
        if (a.length !== b.length) return a.length - b.length;
        return compareText(a, b);
      }
      if (x !== null) return -1;
      if (y !== null) return 1;
      return compareText(a, b);
    }
    const segmentsOf = (path) => path.split("/").filter((segment) => segment.length > 0);
    const pathOf = (segments) => "/" + segments.join("/");
    const childPath = (path, key) => (path === "/" ? "/" : path + "/") + key;

    // The REST protocol.
    const STATUS_NAMES = {
      400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
      412: "Precondition Failed", 413: "Payload Too Large", 500: "Internal Server Error",
      503: "Service Unavailable",
    };
    class RequestError extends Error {
      constructor(status, message) {
        super(message);
        this.status = status;
      }
      get description() {
        if (!this.status) return this.message;
        return `${this.status} ${STATUS_NAMES[this.status] || ""}: ${this.message}`;
      }
    }
    function url(path, parameters) {
      const query = [];
      if (settings.ns) query.push(["ns", settings.ns]);
      for (const entry of Object.entries(parameters || {})) query.push(entry);
      const text = query.map(([k, v]) => k + "=" + encodeURIComponent(v)).join("&");
      const segments = segmentsOf(path).map(encodeURIComponent);
      return "/" + segments.join("/") + ".json" + (text ? "?" + text : "");
    }
    async function request(method, path, parameters, body) {
      const headers = {};
      if (settings.token) headers.Authorization = "Bearer " + settings.token;
      if (body !== undefined) headers["Content-Type"] = "application/json";
      let response;
      try {
        response = await fetch(url(path, parameters), { method, headers, body, cache: "no-store" });
      } catch (error) {
        throw new RequestError(0, "the server cannot be reached");
      }
      const text = await response.text();
      let json = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch (error) {
        json = null;
      }
      if (!response.ok) {
        const message = json && typeof json.error === "string" ? json.error : text;
        throw new RequestError(response.status, message || response.statusText);
      }
      return json;
    }
    const describe = (error) => (error instanceof RequestError ? error.description : String(error));

    // The model: the nodes shown, each with the children read so far (a prefix in key order).
    class TreeNode {
      constructor(key, path, parent) {
        this.key = key;
        this.path = path;
        this.parent = parent;
        this.kind = "unknown"; // leaf, object, branch (shallow true: an object or true), empty
        this.value = null;
        this.children = new Map();
        this.order = [];
        this.loaded = false;
        this.complete = false;
        this.expanded = false;
        this.loading = false;
        this.stale = false;
        this.error = "";
        this.flash = false;
        this.view = null;
      }
      get depth() { return this.parent ? this.parent.depth + 1 : 1; }
      get expandable() { return this.kind === "object" || this.kind === "branch"; }
      get lastKey() { return this.order.length ? this.order[this.order.length - 1] : null; }
      covers(key) {
        return this.complete || (this.lastKey !== null && compareKeys(key, this.lastKey) <= 0);
      }
      get attached() {
        if (!this.parent) return this === state.root;
        return this.parent.children.get(this.key) === this && this.parent.attached;
      }
    }
    const state = { root: null, selected: null, epoch: 0 };

    function clearChildren(node) {
      node.children = new Map();
      node.order = [];
      node.loaded = false;
      node.complete = false;
    }
    function setChildren(node, keys, fill) {
      const children = new Map();
      for (const key of keys) {
        const child = node.children.get(key) || new TreeNode(key, childPath(node.path, key), node);
        children.set(key, child);
        fill(child, key);
      }
      node.children = children;
      node.order = keys;
      node.loaded = true;
    }
    function insertChild(node, child) {
      let low = 0;
      let high = node.order.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (compareKeys(node.order[middle], child.key) < 0) low = middle + 1;
        else high = middle;
      }
      node.order.splice(low, 0, child.key);
      node.children.set(child.key, child);
    }
    const isObject = (value) => value !== null && typeof value === "object";
    function assign(node, value) {
      if (!isObject(value)) {
        node.kind = value === null ? "empty" : "leaf";
        node.value = value;
        clearChildren(node);
        if (node.parent) {
          node.expanded = false;
        } else {
          node.loaded = true;
          node.complete = true;
        }
        return;
      }
      node.kind = "object";
      node.value = null;
      if (!node.loaded) return;
      const keys = Object.keys(value).filter((key) => value[key] !== null).sort(compareKeys);
      const keep = Math.max(PAGE, node.order.length);
      setChildren(node, keys.slice(0, keep), (child, key) => assign(child, value[key]));
      node.complete = keys.length <= keep;
    }
    function nest(segments, value) {
      return segments.reduceRight((inner, key) => ({ [key]: inner }), value);
    }
    function flash(node) {
      if (!replaying) node.flash = true;
    }
    function remove(node) {
      const parent = node.parent;
      if (!parent) {
        assign(node, null);
        flash(node);
        return;
      }
      parent.children.delete(node.key);
      parent.order = parent.order.filter((key) => key !== node.key);
      if (parent.order.length > 0) return;
      if (parent.complete) remove(parent);
      else load(parent, "refresh");
    }

    // Events: a put replaces the value at its path; a patch is a put per member.
    let replaying = false;
    function applyPut(segments, data) {
      let node = state.root;
      if (!node.loaded && node.loading) return;
      for (let index = 0; index < segments.length; index += 1) {
        if (!node.loaded) {
          if (node.loading) return;
          if (data !== null) {
            if (node.kind !== "object") assign(node, {});
            flash(node);
          } else if (node.expandable && node.attached) {
            revalidate(node);
          }
          return;
        }
        const key = segments[index];
        const child = node.children.get(key);
        if (!child) {
          if (data === null || !node.covers(key)) return;
          node.kind = "object";
          node.value = null;
          const created = new TreeNode(key, childPath(node.path, key), node);
          assign(created, nest(segments.slice(index + 1), data));
          insertChild(node, created);
          flash(created);
          return;
        }
        node = child;
      }
      if (data === null) {
        remove(node);
      } else {
        assign(node, data);
        flash(node);
      }
    }
    const events = {
      sequence: 0,
      log: [],
      reading: new Map(),
      begin() {
        this.reading.set(this.sequence, (this.reading.get(this.sequence) || 0) + 1);
        return this.sequence;
      },
      end(start) {
        const count = this.reading.get(start) - 1;
        if (count > 0) this.reading.set(start, count);
        else this.reading.delete(start);
        const oldest = Math.min(...this.reading.keys());
        this.log = this.log.filter((entry) => entry.sequence > oldest);
      },
      record(segments, data) {
        this.sequence += 1;
        if (this.reading.size) this.log.push({ sequence: this.sequence, segments, data });
        applyPut(segments, data);
      },
      replay(start) {
        replaying = true;
        try {
          for (const entry of this.log) {
            if (entry.sequence > start) applyPut(entry.segments, entry.data);
          }
        } finally {
          replaying = false;
        }
      },
      reset() {
        this.log = [];
        this.reading = new Map();
      },
    };

    // Reads: a node's children a page at a time, in key order, first levels only.
    async function load(node, mode) {
      if (node.loading) {
        if (mode !== "more") node.stale = true;
        return;
      }
      const epoch = state.epoch;
      const start = events.begin();
      const more = mode === "more" && node.loaded;
      const count = more ? PAGE : Math.max(PAGE, node.order.length);
      const parameters = { shallow: "true", orderBy: '"$key"' };
      if (more) parameters.startAt = JSON.stringify(node.lastKey);
      parameters.limitToFirst = String(count + (more ? 2 : 1));
      node.loading = true;
      node.error = "";
      scheduleRender();
      let result;
      let failure = null;
      try {
        result = await request("GET", node.path, parameters);
      } catch (error) {
        failure = error;
      }
      if (epoch !== state.epoch) return;
      node.loading = false;
      if (!node.attached) {
        node.stale = false;
        events.end(start);
        return;
      }
      if (failure) {
        node.error = describe(failure);
        if (!node.loaded && node.parent) node.expanded = false;
        events.end(start);
        scheduleRender();
        return;
      }
      applyPage(node, result, count, more);
      events.replay(start);
      events.end(start);
      scheduleRender();
      if (node.stale) {
        node.stale = false;
        load(node, "refresh");
        return;
      }
      if (!more && node.attached && node.loaded) {
        for (const key of node.order) {
          const child = node.children.get(key);
          if (child.expanded) load(child, "refresh");
        }
      }
    }
    function applyPage(node, result, count, more) {
      if (!isObject(result)) {
        if (more) return;
        if (result === null && node.parent) remove(node);
        else assign(node, result);
        return;
      }
      node.kind = "object";
      let keys = Object.keys(result).sort(compareKeys);
      if (more) keys = keys.filter((key) => compareKeys(key, node.lastKey) > 0);
      const complete = keys.length <= count;
      keys = keys.slice(0, count);
      const shallow = (child, key) => {
        const value = result[key];
        if (value !== true) {
          assign(child, value);
        } else if (!child.expandable && !(child.kind === "leaf" && child.value === true)) {
          child.kind = "branch";
          child.value = null;
        }
      };
      if (more) {
        for (const key of keys) {
          const child = new TreeNode(key, childPath(node.path, key), node);
          shallow(child, key);
          node.children.set(key, child);
        }
        node.order = node.order.concat(keys);
      } else {
        setChildren(node, keys, shallow);
      }
      node.complete = complete;
    }
    async function revalidate(node) {
      const epoch = state.epoch;
      const parameters = { shallow: "true", orderBy: '"$key"', limitToFirst: "1" };
      try {
        const result = await request("GET", node.path, parameters);
        if (epoch !== state.epoch || !node.attached || result !== null) return;
        remove(node);
        scheduleRender();
      } catch (error) {
        return;
      }
    }

    // The stream of the displayed location, reconnected after any failure.
    const stream = { source: null, live: false, delay: 500, timer: 0 };
    function setStatus(name, text) {
      statusBox.dataset.state = name;
      statusText.textContent = text;
    }
    function disconnect() {
      clearTimeout(stream.timer);
      if (stream.source) stream.source.close();
      stream.source = null;
      stream.live = false;
    }
    function connect() {
      disconnect();
      const parameters = { shallow: "true" };
      if (settings.token) parameters.auth = settings.token;
      setStatus("connecting", "Connecting…");
      const source = new EventSource(url(state.root.path, parameters));
      stream.source = source;
      const on = (name, handle) =>
        source.addEventListener(name, (event) => {
          if (source === stream.source) handle(event);
        });
      on("put", (event) => received(event, "put"));
      on("patch", (event) => received(event, "patch"));
      on("cancel", () => interrupted("Stopped: the rules no longer allow reading here"));
      on("auth_revoked", () => interrupted("Stopped: the token was revoked"));
      source.onerror = () => {
        if (source === stream.source) interrupted(null);
      };
    }
    function received(event, name) {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      const segments = segmentsOf(message.path || "/");
      if (!stream.live) {
        stream.live = true;
        stream.delay = 500;
        setStatus("live", "Live");
        load(state.root, "refresh");
        return;
      }
      if (name === "put") {
        events.record(segments, message.data);
      } else if (isObject(message.data)) {
        for (const [key, value] of Object.entries(message.data)) {
          events.record(segments.concat(segmentsOf(key)), value);
        }
      }
      scheduleRender();
    }
    async function interrupted(reason) {
      const wasLive = stream.live;
      const epoch = state.epoch;
      disconnect();
      let why = reason;
      if (!why && !wasLive) {
        try {
          const probe = { shallow: "true", orderBy: '"$key"', limitToFirst: "1" };
          await request("GET", state.root.path, probe);
        } catch (error) {
          if (error.status) why = "Refused: " + error.description;
        }
        if (epoch !== state.epoch) return;
      }
      const delay = why ? 5000 : stream.delay;
      stream.delay = Math.min(stream.delay * 2, 5000);
      const seconds = Math.round(delay / 100) / 10;
      const retry = ` — retrying in ${seconds} s`;
      setStatus(why ? "refused" : "reconnecting", (why || "Disconnected") + retry);
      stream.timer = setTimeout(connect, delay);
    }

    // Rendering: one persistent element per node, reordered and updated in place.
    let renderPending = false;
    function scheduleRender() {
      if (renderPending) return;
      renderPending = true;
      requestAnimationFrame(render);
    }
    function element(tag, className, text) {
      const created = document.createElement(tag);
      if (className) created.className = className;
      if (text !== undefined) created.textContent = text;
      return created;
    }
    const ACTIONS = [
      ["edit", "Edit", "Set this value (Enter)"],
      ["add", "Add child", "Add a child with a key or a push id"],
      ["import", "Import", "Replace this node with JSON"],
      ["export", "Export", "Download this node as a JSON file"],
      ["delete", "Delete", "Delete this node (Delete key)"],
    ];
    const nodeOfItem = new WeakMap();
    function viewOf(node) {
      if (node.view) return node.view;
      const item = element("li");
      item.setAttribute("role", "treeitem");
      item.tabIndex = -1;
      item.dataset.path = node.path;
      const row = element("div", "row");
      const toggle = element("span", "toggle");
      toggle.setAttribute("aria-hidden", "true");
      const key = element("span", "key");
      const value = element("span", "value");
      const actions = element("span", "actions");
      const buttons = {};
      for (const [action, label, title] of ACTIONS) {
        const button = element("button", action === "delete" ? "danger" : "", label);
        button.type = "button";
        button.tabIndex = -1;
        button.title = title;
        button.dataset.action = action;
        buttons[action] = button;
        actions.append(button);
      }
      row.append(toggle, key, value, actions);
      const slot = element("div", "slot");
      const error = element("div", "error");
      error.setAttribute("role", "alert");
      const editor = element("div", "editor-slot");
      slot.append(editor, error);
      const group = element("ul");
      group.setAttribute("role", "group");
      item.append(row, slot, group);
      nodeOfItem.set(item, node);
      node.view = { item, row, toggle, key, value, buttons, error, editor, group, more: null };
      return node.view;
    }
    function moreItem(node) {
      const view = node.view;
      if (!view.more) {
        view.more = element("li", "more");
        view.more.setAttribute("role", "treeitem");
        view.more.tabIndex = -1;
        const row = element("div", "row");
        row.append(element("span", "toggle"), element("button", "load-more"));
        row.lastChild.type = "button";
        row.lastChild.tabIndex = -1;
        row.lastChild.dataset.action = "more";
        view.more.append(row);
        nodeOfItem.set(view.more, node);
      }
      const after = `Load ${PAGE} more keys after “${node.lastKey}”`;
      const label = node.loading ? "Loading…" : after;
      view.more.querySelector("button").textContent = label;
      view.more.setAttribute("aria-level", String(node.depth + 1));
      return view.more;
    }
    function setText(target, text) {
      if (target.textContent !== text) target.textContent = text;
    }
    function valueText(node) {
      switch (node.kind) {
        case "leaf": return [JSON.stringify(node.value), typeof node.value];
        case "empty": return ["null", "null"];
        case "unknown": return ["", "object"];
        default:
          if (node.loading && !node.loaded) return ["loading…", "object"];
          if (node.expanded && node.loaded) {
            const count = node.order.length + (node.complete ? "" : "+");
            const single = node.order.length === 1 && node.complete;
            return [`${count} ${single ? "key" : "keys"}`, "object"];
          }
          return ["{…}", "object"];
      }
    }
    function renderNode(node) {
      const view = viewOf(node);
      const item = view.item;
      item.setAttribute("aria-level", String(node.depth));
      if (node.expandable) item.setAttribute("aria-expanded", String(node.expanded));
      else item.removeAttribute("aria-expanded");
      const selected = node === state.selected;
      item.setAttribute("aria-selected", String(selected));
      item.tabIndex = selected ? 0 : -1;
      setText(view.toggle, node.expandable ? (node.expanded ? "▾" : "▸") : "");
      setText(view.key, node.parent ? node.key : node.path);
      const [text, type] = valueText(node);
      setText(view.value, text);
      view.value.className = "value " + type;
      view.value.title = node.kind === "leaf" ? text : "";
      view.buttons.edit.hidden = node.kind !== "leaf" && node.kind !== "empty";
      view.buttons.add.hidden = node.kind === "leaf";
      view.buttons.delete.hidden = node.kind === "empty";
      view.buttons.export.hidden = node.kind === "empty";
      setText(view.error, node.error);
      view.error.hidden = !node.error;
      const shown = [];
      if (node.expanded && node.loaded) {
        for (const key of node.order) shown.push(renderNode(node.children.get(key)).item);
        if (!node.complete) shown.push(moreItem(node));
      }
      const group = view.group;
      shown.forEach((child, index) => {
        const current = group.children[index] || null;
        if (current !== child) group.insertBefore(child, current);
      });
      while (group.children.length > shown.length) group.lastElementChild.remove();
      if (node.flash) {
        node.flash = false;
        view.row.classList.remove("changed");
        void view.row.offsetWidth;
        view.row.classList.add("changed");
      }
      return view;
    }
    function render() {
      renderPending = false;
      if (!state.root) return;
      if (!state.selected || !state.selected.attached) {
        let candidate = state.selected;
        while (candidate && !candidate.attached) candidate = candidate.parent;
        const hadFocus = document.activeElement && tree.contains(document.activeElement);
        state.selected = candidate || state.root;
        renderNode(state.root);
        if (hadFocus) state.selected.view.item.focus();
        return;
      }
      renderNode(state.root);
    }

    // Selection and keyboard navigation (the tree view pattern).
    function visibleItems() {
      return Array.from(tree.querySelectorAll("li[role=treeitem]"));
    }
    function select(node, item) {
      state.selected = node;
      render();
      (item || node.view.item).focus();
    }
    function toggle(node, expand) {
      if (!node.expandable || node.expanded === expand) return;
      node.expanded = expand;
      node.error = "";
      if (expand) load(node, "refresh");
      else if (node.parent) clearChildren(node);
      scheduleRender();
    }
    tree.addEventListener("keydown", (event) => {
      if (event.target.closest(".slot")) return;
      const item = event.target.closest("li[role=treeitem]");
      if (!item) return;
      const node = nodeOfItem.get(item);
      const isMore = item.classList.contains("more");
      const items = visibleItems();
      const index = items.indexOf(item);
      const go = (target) => {
        if (!target) return;
        const owner = nodeOfItem.get(target);
        if (target.classList.contains("more")) {
          target.focus();
        } else {
          select(owner, target);
        }
      };
      switch (event.key) {
        case "ArrowDown": go(items[index + 1]); break;
        case "ArrowUp": go(items[index - 1]); break;
        case "Home": go(items[0]); break;
        case "End": go(items[items.length - 1]); break;
        case "ArrowRight":
          if (isMore) return;
          if (node.expandable && !node.expanded) toggle(node, true);
          else if (node.expanded && items[index + 1]) go(items[index + 1]);
          break;
        case "ArrowLeft":
          if (!isMore && node.expanded && node.parent) toggle(node, false);
          else if (isMore) select(node);
          else if (node.parent) select(node.parent);
          break;
        case "Enter":
          if (isMore) load(node, "more");
          else if (node.kind === "leaf" || node.kind === "empty") openEditor(node, "edit");
          else toggle(node, !node.expanded);
          break;
        case "Delete":
          if (isMore || node.kind === "empty") return;
          openEditor(node, "delete");
          break;
        default:
          return;
      }
      event.preventDefault();
    });
    tree.addEventListener("click", (event) => {
      const item = event.target.closest("li[role=treeitem]");
      if (!item || event.target.closest(".slot")) return;
      const node = nodeOfItem.get(item);
      const button = event.target.closest("button[data-action]");
      if (button && button.dataset.action === "more") {
        load(node, "more");
        return;
      }
      select(node);
      if (button) {
        const action = button.dataset.action;
        if (action === "export") exportNode(node);
        else openEditor(node, action);
      } else if (event.target.closest(".toggle")) {
        toggle(node, !node.expanded);
      }
    });
    tree.addEventListener("dblclick", (event) => {
      const item = event.target.closest("li[role=treeitem]");
      if (!item || item.classList.contains("more") || event.target.closest(".slot, .actions")) {
        return;
      }
      const node = nodeOfItem.get(item);
      if (node.kind === "leaf") openEditor(node, "edit");
      else toggle(node, !node.expanded);
    });

    // Editing: nothing changes locally; the stream brings what the server stored.
    function validity(input, hint, submit) {
      const check = () => {
        let message = "";
        try {
          JSON.parse(input.value);
        } catch (error) {
          message = input.value.trim() ? "Not valid JSON" : "Enter a JSON value";
        }
        input.setAttribute("aria-invalid", String(Boolean(message)));
        hint.textContent = message;
        submit.disabled = Boolean(message);
      };
      input.addEventListener("input", check);
      check();
    }
    function field(tag, className, label) {
      const input = element(tag, className);
      input.setAttribute("aria-label", label);
      input.spellcheck = false;
      input.autocomplete = "off";
      return input;
    }
    function closeEditor(node) {
      node.view.editor.replaceChildren();
      node.view.item.focus();
    }
    function openEditor(node, kind) {
      const view = viewOf(node);
      node.error = "";
      const form = element("form", "editor " + kind);
      const submit = element("button", kind === "delete" ? "danger" : "primary");
      submit.type = "submit";
      const cancel = element("button", "", "Cancel");
      cancel.type = "button";
      cancel.addEventListener("click", () => closeEditor(node));
      const hint = element("span", "hint");
      let first;
      let send;
      if (kind === "edit") {
        const input = field("input", "json", `New JSON value of ${node.path}`);
        input.value = node.kind === "empty" ? "" : JSON.stringify(node.value);
        submit.textContent = "Save";
        form.append(input, submit, cancel, hint);
        validity(input, hint, submit);
        first = input;
        send = () => request("PUT", node.path, { print: "silent" }, input.value);
      } else if (kind === "add") {
        const key = field("input", "key-input", `Key of the new child of ${node.path}`);
        key.placeholder = "key (empty: push id)";
        const input = field("input", "json", "JSON value of the new child");
        input.placeholder = "JSON value";
        submit.textContent = "Add";
        form.append(key, input, submit, cancel, hint);
        validity(input, hint, submit);
        first = key;
        send = () =>
          key.value === ""
            ? request("POST", node.path, {}, input.value)
            : request("PUT", childPath(node.path, key.value), { print: "silent" }, input.value);
      } else if (kind === "import") {
        const input = field("textarea", "json", `JSON to store at ${node.path}`);
        input.placeholder = "Paste JSON or choose a file";
        const file = element("input");
        file.type = "file";
        file.accept = ".json,application/json";
        file.setAttribute("aria-label", "JSON file to import");
        submit.textContent = "Replace with this JSON";
        form.append(input, file, submit, cancel, hint);
        validity(input, hint, submit);
        file.addEventListener("change", async () => {
          if (!file.files.length) return;
          input.value = await file.files[0].text();
          input.dispatchEvent(new Event("input"));
        });
        first = input;
        send = () => request("PUT", node.path, { print: "silent" }, input.value);
      } else {
        const question = element("span", "question", `Delete ${node.path} and all it holds?`);
        submit.textContent = "Delete";
        form.append(question, submit, cancel);
        first = submit;
        send = () => request("DELETE", node.path, { print: "silent" });
      }
      form.addEventListener("keydown", (event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          closeEditor(node);
        }
      });
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        submit.disabled = true;
        node.error = "";
        scheduleRender();
        try {
          await send();
          if (node.view) closeEditor(node);
        } catch (error) {
          node.error = describe(error);
          submit.disabled = false;
        }
        scheduleRender();
      });
      view.editor.replaceChildren(form);
      scheduleRender();
      first.focus();
    }
    async function exportNode(node) {
      node.error = "";
      try {
        const data = await request("GET", node.path, {});
        const blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
        const link = element("a");
        link.href = URL.createObjectURL(blob);
        const name = node.path === "/" ? "root" : segmentsOf(node.path).join("-");
        link.download = (settings.ns ? settings.ns + "-" : "") + name + ".json";
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 10000);
      } catch (error) {
        node.error = describe(error);
      }
      scheduleRender();
    }

    // The location: namespace, path and token.
    function readHash() {
      const values = new URLSearchParams(location.hash.slice(1));
      settings.ns = values.get("ns") || "";
      settings.path = pathOf(segmentsOf(values.get("path") || "/"));
    }
    function open() {
      state.epoch += 1;
      disconnect();
      events.reset();
      byId("ns").value = settings.ns;
      byId("path").value = settings.path;
      byId("token").value = settings.token;
      const segments = segmentsOf(settings.path);
      const root = new TreeNode(segments[segments.length - 1] || "", settings.path, null);
      root.kind = "object";
      root.expanded = true;
      state.root = root;
      state.selected = root;
      tree.replaceChildren(viewOf(root).item);
      render();
      load(root, "refresh");
      connect();
    }
    byId("location").addEventListener("submit", (event) => {
      event.preventDefault();
      settings.ns = byId("ns").value.trim();
      settings.path = pathOf(segmentsOf(byId("path").value.trim()));
      settings.token = byId("token").value;
      if (settings.token) sessionStorage.setItem(TOKEN_KEY, settings.token);
      else sessionStorage.removeItem(TOKEN_KEY);
      const hash = new URLSearchParams();
      if (settings.ns) hash.set("ns", settings.ns);
      if (settings.path !== "/") hash.set("path", settings.path);
      history.replaceState(null, "", hash.toString() ? "#" + hash : location.pathname);
      open();
    });
    window.addEventListener("hashchange", () => {
      readHash();
      open();
    });
    readHash();
    open();
    })();
    """#
}
