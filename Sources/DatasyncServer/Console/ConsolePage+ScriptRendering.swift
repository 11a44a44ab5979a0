extension ConsolePage {
  /// How the console draws the model and moves through it: rendering, selection and keyboard
  /// navigation.
  static let scriptRendering = #"""
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
    """#
}
