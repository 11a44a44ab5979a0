extension ConsolePage {
  /// The console script's end: editing, the location form, and the start.
  static let scriptEditing = #"""
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
