extension ConsolePage {
  /// The console script's opening: settings, key order, the REST protocol and the model of
  /// the nodes shown.
  static let scriptFoundations = #"""
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
    """#
}
