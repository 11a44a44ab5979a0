#!/usr/bin/env python3
"""Drives the data console of `datasync serve` in a real headless Chromium.

Usage: console_test.py <path to the datasync executable> [--screenshot <png path>]

Starts `datasync serve` on 127.0.0.1 (port 0, the chosen port read from its output) with a
temporary data directory, rules that leave one subtree read-only, and an admin token that the
test's own REST client (standing for "another client") uses to seed and change data. Every
check runs against the page as a user sees it (rows found by their data-path, values by their
text). Exits non-zero when any check fails, naming it.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ADMIN = "browser-test-admin"
RULES = {
    "rules": {
        ".read": True,
        "live": {".write": True},
        "chat": {".write": True},
        "big": {".write": True},
    }
}
CHAT = {
    "rooms": {
        "general": {
            "title": "General",
            "topic": "Anything goes",
            "members": 3,
            "messages": {
                "-Nx1aA": {"from": "ada", "text": "Morning all!", "at": 1764565200000},
                "-Nx1aB": {"from": "grace", "text": "Deploy is green.", "at": 1764565260000},
                "-Nx1aC": {"from": "linus", "text": "Reviewing the patch now", "at": 1764565322000},
            },
        },
        "random": {"title": "Random", "topic": "Off-topic", "members": 2, "messages": {}},
    },
    "users": {
        "ada": {"name": "Ada Lovelace", "online": True},
        "grace": {"name": "Grace Hopper", "online": True},
        "linus": {"name": "Linus", "online": False},
    },
}


class Server:
    """A `datasync serve` process; restartable on the same port with the same data."""

    def __init__(self, executable, directory):
        self.executable = executable
        self.directory = directory
        self.port = 0
        self.process = None
        rules = os.path.join(directory, "rules.json")
        with open(rules, "w") as file:
            json.dump(RULES, file)
        self.arguments = [
            executable, "serve", "--host", "127.0.0.1", "--data", os.path.join(directory, "data"),
            "--rules", rules, "--admin-token", ADMIN,
        ]

    def start(self):
        self.process = subprocess.Popen(
            self.arguments + ["--port", str(self.port)], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"datasync serve exited with {self.process.wait()}")
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if found:
                self.port = int(found.group(1))
                return
        raise RuntimeError("datasync serve did not say where it listens within 30 s")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)
        self.process = None

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def rest(self, method, path, value=None, token=ADMIN, params=""):
        """Another client: one REST request; answers (status, decoded body)."""
        body = None if value is None else json.dumps(value).encode()
        target = f"{self.base}{path}.json" + (f"?{params}" if params else "")
        request = urllib.request.Request(target, data=body, method=method)
        request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
                return response.status, json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read().decode() or "null")


class ConsoleTest:
    def __init__(self, server, screenshot):
        self.server = server
        self.screenshot = screenshot
        options = Options()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,800",
                         "--force-device-scale-factor=1"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_window_size(1280, 800)

    # Helpers -------------------------------------------------------------------------------

    def wait(self, what, condition, timeout=10.0):
        deadline = time.monotonic() + timeout
        while True:
            result = condition()
            if result:
                return result
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")
            time.sleep(0.02)

    def click(self, element):
        """Clicks element once scrolled to the middle of the window (clear of the header)."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def item(self, path):
        found = self.driver.find_elements(By.CSS_SELECTOR, f'li[data-path="{path}"]')
        return found[0] if found else None

    def value_of(self, path):
        """The text shown as the value of the row at path (None when no row is shown)."""
        return self.driver.execute_script(
            "const item = document.querySelector(`li[data-path=\"${arguments[0]}\"]`);"
            "return item ? item.querySelector(':scope > .row > .value').textContent : null;", path)

    def expand(self, path):
        item = self.wait(f"the row {path}", lambda: self.item(path))
        if item.get_attribute("aria-expanded") != "true":
            self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row > .toggle"))
        self.wait(f"{path} expanded and loaded", lambda: self.driver.execute_script(
            "const item = document.querySelector(`li[data-path=\"${arguments[0]}\"]`);"
            "return item.getAttribute('aria-expanded') === 'true' &&"
            " item.querySelector(':scope > ul').children.length > 0;", path))

    def status(self):
        return self.driver.find_element(By.ID, "status").get_attribute("data-state")

    def errors(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def open_console(self, hash_part=""):
        self.driver.get(self.server.base + "/" + hash_part)
        self.wait("the live connection", lambda: self.status() == "live")

    def child_rows(self, path):
        return self.driver.execute_script(
            "const item = document.querySelector(`li[data-path=\"${arguments[0]}\"]`);"
            "return Array.from(item.querySelectorAll(':scope > ul > li:not(.more)'))"
            ".map((child) => child.dataset.path);", path)

    # Checks --------------------------------------------------------------------------------

    def test_page_loads_without_console_errors(self):
        self.open_console()
        self.wait("the root's children", lambda: self.item("/chat") and self.item("/live"))
        errors = self.errors()
        assert errors == [], f"console errors at load: {errors}"
        title = self.driver.title
        assert title == "Datasync console", title

    def test_rest_write_appears_within_a_second(self):
        self.expand("/live")
        for value in [41, "forty-two", {"nested": True}, 43]:
            started = time.monotonic()
            status, _ = self.server.rest("PUT", "/live/counter", value)
            assert status == 200, status
            shown = "{…}" if isinstance(value, dict) else json.dumps(value)
            self.wait(f"/live/counter showing {shown}", lambda: self.value_of("/live/counter") == shown,
                      timeout=1.0)
            elapsed = time.monotonic() - started
            assert elapsed < 1.0, f"{elapsed:.2f} s"

    def test_leaf_edited_with_the_keyboard_is_stored(self):
        item = self.wait("the row /live/counter", lambda: self.item("/live/counter"))
        self.click(self.item("/live").find_element(By.CSS_SELECTOR, ":scope > .row > .key"))
        live = self.item("/live")
        self.wait("focus on /live", lambda: self.driver.switch_to.active_element == live)
        rows = self.child_rows("/live")
        active = live
        for _ in range(rows.index("/live/counter") + 1):
            active.send_keys(Keys.ARROW_DOWN)
            active = self.driver.switch_to.active_element
        assert active == item, "ArrowDown did not reach /live/counter"
        assert item.get_attribute("aria-selected") == "true"
        active.send_keys(Keys.ENTER)
        field = self.wait("the value editor", lambda: item.find_elements(By.CSS_SELECTOR, "input.json"))[0]
        field.clear()
        field.send_keys("{bad")
        save = item.find_element(By.CSS_SELECTOR, "button[type=submit]")
        assert not save.is_enabled(), "invalid JSON must not be sendable"
        field.clear()
        field.send_keys('"edited in the page"')
        field.send_keys(Keys.ENTER)
        self.wait("the stored value over REST", lambda: self.server.rest("GET", "/live/counter")
                  == (200, "edited in the page"), timeout=3)
        self.wait("the edited value shown", lambda: self.value_of("/live/counter")
                  == '"edited in the page"', timeout=2)

    def test_push_from_another_client_appears_and_its_delete_removes_it(self):
        self.expand("/chat")
        self.expand("/chat/rooms")
        self.expand("/chat/rooms/general")
        self.expand("/chat/rooms/general/messages")
        before = self.child_rows("/chat/rooms/general/messages")
        status, answer = self.server.rest("POST", "/chat/rooms/general/messages",
                                          {"from": "ada", "text": "Pushed elsewhere"})
        assert status == 200, status
        path = "/chat/rooms/general/messages/" + answer["name"]
        self.wait(f"the new row {path}", lambda: self.item(path), timeout=2)
        after = self.child_rows("/chat/rooms/general/messages")
        assert after == before + [path], after
        status, _ = self.server.rest("DELETE", path)
        assert status == 200, status
        self.wait(f"the row {path} gone", lambda: self.item(path) is None, timeout=2)
        assert self.child_rows("/chat/rooms/general/messages") == before

    def test_rows_do_not_move_while_events_stream(self):
        below = self.item("/chat/rooms/general/topic")
        top = below.rect["y"]
        for number in range(30):
            self.server.rest("PUT", "/chat/rooms/general/members", number * 1000)
        self.wait("the last update", lambda: self.value_of("/chat/rooms/general/members") == "29000")
        assert below.rect["y"] == top, f"the row moved from {top} to {below.rect['y']}"

    def test_denied_write_shows_the_error_and_changes_nothing(self):
        status, _ = self.server.rest("PUT", "/locked", {"setting": "keep"})
        assert status == 200, status
        self.expand("/locked")
        item = self.wait("the row /locked/setting", lambda: self.item("/locked/setting"))
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row > .key"))
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row button[data-action=edit]"))
        field = item.find_element(By.CSS_SELECTOR, "input.json")
        field.clear()
        field.send_keys('"changed"' + Keys.ENTER)
        error = self.wait("the 403 next to the row", lambda: [
            element for element in item.find_elements(By.CSS_SELECTOR, ":scope > .slot > .error")
            if element.is_displayed() and "403" in element.text])[0]
        assert "403" in error.text, error.text
        assert self.value_of("/locked/setting") == '"keep"'
        assert self.server.rest("GET", "/locked/setting") == (200, "keep")
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .slot button[type=button]"))

    def test_invalid_key_shows_the_400(self):
        item = self.item("/live")
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row > .key"))
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row button[data-action=add]"))
        key = item.find_element(By.CSS_SELECTOR, "input.key-input")
        key.send_keys("bad.key")
        value = item.find_element(By.CSS_SELECTOR, "input.json")
        value.send_keys("1" + Keys.ENTER)
        self.wait("the 400 next to /live", lambda: "400" in item.find_element(
            By.CSS_SELECTOR, ":scope > .slot > .error").text)
        assert self.item("/live/bad.key") is None
        key.clear()
        key.send_keys("added")
        value.send_keys(Keys.ENTER)
        self.wait("the added child", lambda: self.value_of("/live/added") == "1", timeout=2)
        assert self.server.rest("GET", "/live/added") == (200, 1)

    def test_changes_are_highlighted(self):
        self.server.rest("PUT", "/live/greeting", "hello again")
        self.wait("the highlight on /live/greeting", lambda: "changed" in self.item(
            "/live/greeting").find_element(By.CSS_SELECTOR, ":scope > .row").get_attribute("class"),
            timeout=1)

    def test_delete_from_the_page_asks_first(self):
        item = self.wait("the row /live/added", lambda: self.item("/live/added"))
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row > .key"))
        self.driver.switch_to.active_element.send_keys(Keys.DELETE)
        question = self.wait("the confirmation", lambda: item.find_elements(
            By.CSS_SELECTOR, ":scope > .slot form.delete"))[0]
        assert "/live/added" in question.text, question.text
        self.click(question.find_element(By.XPATH, ".//button[text()='Cancel']"))
        assert self.server.rest("GET", "/live/added") == (200, 1)
        assert self.item("/live/added") is not None
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row button[data-action=delete]"))
        question = self.wait("the confirmation again", lambda: item.find_elements(
            By.CSS_SELECTOR, ":scope > .slot form.delete"))[0]
        self.click(question.find_element(By.CSS_SELECTOR, "button[type=submit]"))
        self.wait("/live/added gone", lambda: self.item("/live/added") is None, timeout=2)
        assert self.server.rest("GET", "/live/added") == (200, None)

    def test_add_a_child_with_a_push_id_from_the_page(self):
        path = "/chat/rooms/general/messages"
        before = set(self.server.rest("GET", path)[1])
        item = self.item(path)
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row > .key"))
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row button[data-action=add]"))
        value = item.find_element(By.CSS_SELECTOR, ":scope > .slot input.json")
        value.send_keys('{"from": "console", "text": "Sent from the page"}' + Keys.ENTER)
        added = self.wait("the pushed child over REST",
                          lambda: set(self.server.rest("GET", path)[1]) - before, timeout=3)
        key = added.pop()
        assert re.fullmatch(r"[-0-9A-Za-z_]{20}", key), key
        self.wait("the pushed row", lambda: self.value_of(f"{path}/{key}") is not None)
        self.server.rest("DELETE", f"{path}/{key}")

    def test_import_json_at_a_path(self):
        item = self.item("/live")
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row > .key"))
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row button[data-action=import]"))
        area = item.find_element(By.CSS_SELECTOR, ":scope > .slot textarea")
        area.send_keys('{"greeting": "imported", "counter": 5, "list": {"a": 1, "b": 2}}')
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .slot button[type=submit]"))
        expected = {"greeting": "imported", "counter": 5, "list": {"a": 1, "b": 2}}
        self.wait("the imported data over REST",
                  lambda: self.server.rest("GET", "/live") == (200, expected), timeout=3)
        self.wait("the imported rows", lambda: self.child_rows("/live")
                  == ["/live/counter", "/live/greeting", "/live/list"])
        assert self.value_of("/live/greeting") == '"imported"'

    def test_export_downloads_the_node_as_a_json_file(self):
        directory = tempfile.mkdtemp(prefix="datasync-console-export-")
        try:
            self.driver.execute_cdp_cmd(
                "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": directory})
            self.expand("/chat/users")
            item = self.item("/chat/users")
            self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row > .key"))
            self.click(item.find_element(By.CSS_SELECTOR,
                                         ":scope > .row button[data-action=export]"))
            file = os.path.join(directory, "chat-users.json")
            self.wait("the exported file", lambda: os.path.exists(file))
            with open(file) as exported:
                assert json.load(exported) == self.server.rest("GET", "/chat/users")[1]
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    def test_token_and_namespace_fields(self):
        token = self.driver.find_element(By.ID, "token")
        token.send_keys("not-a-token" + Keys.ENTER)
        self.wait("the refusal of an unknown token", lambda: self.status() == "refused")
        assert "401" in self.driver.find_element(By.ID, "status").text
        token.clear()
        token.send_keys(ADMIN + Keys.ENTER)
        self.wait("the live connection as admin", lambda: self.status() == "live")
        stored = self.driver.execute_script(
            "return [sessionStorage.length, localStorage.length, document.cookie, location.href]")
        assert stored[0] == 1 and stored[1] == 0 and stored[2] == "", stored
        assert ADMIN not in stored[3], stored
        self.expand("/locked")
        item = self.wait("the row /locked/setting", lambda: self.item("/locked/setting"))
        self.click(item.find_element(By.CSS_SELECTOR, ":scope > .row > .key"))
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        field = item.find_element(By.CSS_SELECTOR, "input.json")
        field.clear()
        field.send_keys('"changed by the admin"' + Keys.ENTER)
        self.wait("the admin's write", lambda: self.server.rest("GET", "/locked/setting")
                  == (200, "changed by the admin"), timeout=3)
        self.server.rest("PUT", "/", {"elsewhere": "second namespace"}, params="ns=second")
        namespace = self.driver.find_element(By.ID, "ns")
        namespace.send_keys("second" + Keys.ENTER)
        self.wait("the second namespace", lambda: self.value_of("/elsewhere")
                  == '"second namespace"')
        assert self.item("/chat") is None
        assert "ns=second" in self.driver.current_url
        self.driver.execute_script("sessionStorage.clear()")
        self.open_console()

    def test_an_empty_location_fills_and_empties_live(self):
        try:
            self.open_console("#path=/chat/drafts")
            self.wait("null at the empty location", lambda: self.value_of("/chat/drafts") == "null")
            self.server.rest("PUT", "/chat/drafts/first", "a draft")
            self.wait("the first child", lambda: self.value_of("/chat/drafts/first") == '"a draft"')
            self.server.rest("PATCH", "/chat/drafts", {"second": 2, "third/deep": True})
            self.wait("the patched children", lambda: self.child_rows("/chat/drafts") == [
                "/chat/drafts/first", "/chat/drafts/second", "/chat/drafts/third"])
            self.server.rest("DELETE", "/chat/drafts")
            self.wait("null again", lambda: self.value_of("/chat/drafts") == "null"
                      and self.child_rows("/chat/drafts") == [])
        finally:
            self.open_console()

    def test_large_node_opens_shallow_in_under_two_seconds(self):
        keys = {f"item{number:06d}": {"index": number, "label": f"Item {number}"}
                for number in range(100_000)}
        status, _ = self.server.rest("PUT", "/big", keys, params="print=silent")
        assert status == 204, status
        self.wait("the row /big", lambda: self.item("/big"))
        started = time.monotonic()
        self.click(self.item("/big").find_element(By.CSS_SELECTOR, ":scope > .row > .toggle"))
        self.wait("the first page of /big", lambda: len(self.child_rows("/big")) == 50, timeout=2)
        elapsed = time.monotonic() - started
        print(f"  /big expanded: first page shown after {elapsed:.3f} s")
        assert elapsed < 2.0, f"{elapsed:.2f} s"
        rows = self.child_rows("/big")
        assert rows[0] == "/big/item000000" and rows[-1] == "/big/item000049", rows
        more = self.item("/big").find_element(By.CSS_SELECTOR, ":scope > ul > li.more button")
        self.click(more)
        self.wait("the second page", lambda: len(self.child_rows("/big")) == 100)
        assert self.child_rows("/big")[-1] == "/big/item000099"
        self.server.rest("PUT", "/big/item000010/label", "changed")
        self.server.rest("PUT", "/big/item099999", None)
        self.server.rest("PUT", "/big/item000050x", {"index": -1})
        self.wait("the new key inside the loaded range",
                  lambda: "/big/item000050x" in self.child_rows("/big"))
        assert len(self.child_rows("/big")) == 101
        self.click(self.item("/big").find_element(By.CSS_SELECTOR, ":scope > .row > .toggle"))
        self.wait("/big collapsed", lambda: self.child_rows("/big") == [])
        try:
            started = time.monotonic()
            self.driver.get(self.server.base + "/#path=/big")
            self.wait("/big opened as the location", lambda: self.item("/big")
                      and len(self.child_rows("/big")) == 50, timeout=2)
            elapsed = time.monotonic() - started
            print(f"  /big opened as the location: first page shown after {elapsed:.3f} s")
            assert elapsed < 2.0, f"{elapsed:.2f} s"
            self.wait("the stream of /big", lambda: self.status() == "live")
            print(f"  /big opened as the location: live after {time.monotonic() - started:.3f} s")
        finally:
            self.open_console()

    def test_stream_cut_by_a_restart_reconnects_and_the_tree_is_right(self):
        for path in ["/live", "/chat", "/chat/rooms", "/chat/rooms/general",
                     "/chat/rooms/general/messages"]:
            self.expand(path)
        self.server.stop()
        self.wait("the disconnection shown", lambda: self.status() != "live", timeout=10)
        self.server.start()
        self.server.rest("PUT", "/live/counter", "written while the page was away")
        self.server.rest("DELETE", "/chat/rooms/general/messages/-Nx1aA")
        self.wait("the live connection again", lambda: self.status() == "live", timeout=15)
        self.server.rest("PUT", "/chat/rooms/general/title", "General (after restart)")
        self.wait("the value written before reconnection",
                  lambda: self.value_of("/live/counter") == '"written while the page was away"')
        self.wait("the removal made before reconnection",
                  lambda: self.item("/chat/rooms/general/messages/-Nx1aA") is None)
        self.wait("the value written after reconnection",
                  lambda: self.value_of("/chat/rooms/general/title") == '"General (after restart)"')
        for path in ["/live", "/chat/rooms/general", "/chat/rooms/general/messages"]:
            _, data = self.server.rest("GET", path)
            shown = sorted(row.rsplit("/", 1)[1] for row in self.child_rows(path))
            assert shown == sorted(data), f"{path}: shown {shown}, stored {sorted(data)}"

    def test_narrow_window_has_no_horizontal_scroll(self):
        self.driver.set_window_size(420, 800)
        try:
            self.wait("the narrow layout", lambda: self.driver.execute_script(
                "return window.innerWidth") <= 420)
            width = self.driver.execute_script(
                "return [document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], f"content {width[0]} px wide in a {width[1]} px window"
        finally:
            self.driver.set_window_size(1280, 800)

    def test_screenshot_of_a_chat_database(self):
        self.errors()
        self.server.rest("PUT", "/chat", CHAT)
        self.open_console("#path=/chat")
        self.expand("/chat/rooms")
        self.expand("/chat/rooms/general")
        self.expand("/chat/rooms/general/messages")
        self.expand("/chat/rooms/general/messages/-Nx1aB")
        self.expand("/chat/users")
        self.click(self.item("/chat/rooms/general/messages/-Nx1aB/text").find_element(
            By.CSS_SELECTOR, ":scope > .row > .key"))
        self.driver.execute_script("document.activeElement.blur()")
        self.server.rest("PUT", "/chat/rooms/general/members", 4)
        self.wait("the update", lambda: self.value_of("/chat/rooms/general/members") == "4")
        time.sleep(0.3)
        if self.screenshot:
            self.driver.save_screenshot(self.screenshot)
        errors = self.errors()
        assert errors == [], f"console errors: {errors}"


def main():
    arguments = sys.argv[1:]
    screenshot = None
    if "--screenshot" in arguments:
        index = arguments.index("--screenshot")
        screenshot = os.path.abspath(arguments[index + 1])
        del arguments[index:index + 2]
    if len(arguments) != 1:
        print(__doc__)
        return 2
    directory = tempfile.mkdtemp(prefix="datasync-console-")
    server = Server(os.path.abspath(arguments[0]), directory)
    failures = 0
    test = None
    try:
        server.start()
        server.rest("PUT", "/", {"chat": CHAT, "live": {"greeting": "hello"}})
        test = ConsoleTest(server, screenshot)
        checks = [name for name in ConsoleTest.__dict__ if name.startswith("test_")]
        for name in checks:
            started = time.monotonic()
            try:
                getattr(test, name)()
                print(f"PASS {name} ({time.monotonic() - started:.2f} s)", flush=True)
            except Exception:
                failures += 1
                print(f"FAIL {name}", flush=True)
                traceback.print_exc()
        print(f"\n{len(checks) - failures} passed, {failures} failed", flush=True)
    finally:
        if test:
            test.driver.quit()
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
