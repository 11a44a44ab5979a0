extension ConsolePage {
  /// How the console keeps the model in step with the server: events, paged reads and the
  /// stream of the displayed location.
  static let scriptSynchronisation = #"""
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
    """#
}
