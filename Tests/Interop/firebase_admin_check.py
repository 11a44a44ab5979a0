"""Interoperability check: the independent client `firebase_admin.db` (PyPI package
firebase-admin) against `datasync serve`.

Usage: python firebase_admin_check.py PATH_TO_DATASYNC_EXECUTABLE

Starts `datasync serve` on 127.0.0.1 with port 0 and the default rules (auth != null): the SDK
authenticates as the admin with `Bearer owner`, as it does against local emulators. Points the
SDK at it through FIREBASE_DATABASE_EMULATOR_HOST, runs every check, stops the server with
SIGTERM. Prints one line per check; exits 1 at the first failure.
"""

import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading

CHECKS = []
closing_listeners = threading.Event()


def ignore_listener_close_errors(arguments):
    """The SDK's listener thread may raise AttributeError when its registration is closed while
    it reads (the response is released under it): client-side, after our checks; noted in one
    line. Anything else is reported as usual."""
    if (closing_listeners.is_set() and arguments.exc_type is AttributeError
            and "_start_listen" in (arguments.thread.name if arguments.thread else "")):
        print("note: the SDK's listener thread raised AttributeError on close() (client side)")
        return
    threading.__excepthook__(arguments)


threading.excepthook = ignore_listener_close_errors


def check(function):
    CHECKS.append(function)
    return function


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def start_server(executable, directory):
    process = subprocess.Popen(
        [executable, "serve", "--port", "0", "--data", os.path.join(directory, "data.sqlite")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        match = re.match(r"listening on http://127\.0\.0\.1:(\d+)$", line.strip())
        if match:
            return process, int(match.group(1))
    raise RuntimeError("datasync serve did not start (exit status %s)" % process.wait())


@check
def set_and_get(db):
    ref = db.reference("/people")
    ref.set({"ada": {"born": 1815}, "alan": {"born": 1912}, "grace": {"born": 1906}})
    expect(ref.get() == {"ada": {"born": 1815}, "alan": {"born": 1912},
                         "grace": {"born": 1906}}, "get after set: %r" % ref.get())
    expect(ref.child("ada/born").get() == 1815, "get of a leaf")
    expect(db.reference("/nothing/here").get() is None, "get of a missing location")


@check
def get_shallow(db):
    value = db.reference("/people").get(shallow=True)
    expect(value == {"ada": True, "alan": True, "grace": True}, "shallow get: %r" % value)


@check
def get_with_etags(db):
    ref = db.reference("/tagged")
    ref.set({"n": 1})
    value, etag = ref.get(etag=True)
    expect(value == {"n": 1} and isinstance(etag, str) and etag, "get with etag")
    changed, _, _ = ref.get_if_changed(etag)
    expect(not changed, "get_if_changed with the current etag reports no change")
    written, _, new_etag = ref.set_if_unchanged(etag, {"n": 2})
    expect(written and new_etag != etag, "set_if_unchanged with the current etag writes")
    written, current, current_etag = ref.set_if_unchanged(etag, {"n": 3})
    expect(not written and current == {"n": 2} and current_etag == new_etag,
           "set_if_unchanged with a stale etag answers the current value and etag")
    changed, current, _ = ref.get_if_changed(etag)
    expect(changed and current == {"n": 2}, "get_if_changed with a stale etag")


@check
def update_multi_location(db):
    root = db.reference("/")
    root.update({"accounts/a/balance": 90, "accounts/b/balance": 110, "ledger/t1": 10})
    expect(db.reference("/accounts").get() == {"a": {"balance": 90}, "b": {"balance": 110}},
           "multi-location update")
    expect(db.reference("/ledger/t1").get() == 10, "multi-location update, other branch")
    db.reference("/accounts/a").update({"owner": "ada"})
    expect(db.reference("/accounts/a").get() == {"balance": 90, "owner": "ada"},
           "update keeps the other children")


@check
def push(db):
    ref = db.reference("/messages")
    first = ref.push({"text": "hello"})
    second = ref.push({"text": "world"})
    expect(len(first.key) == 20 and first.key < second.key, "push identifiers in order")
    expect(first.get() == {"text": "hello"}, "the pushed value")
    expect(list(ref.get().keys()) == [first.key, second.key], "pushed children in order")


@check
def delete(db):
    ref = db.reference("/messages")
    ref.delete()
    expect(ref.get() is None, "deleted")


@check
def transaction(db):
    counter = db.reference("/counter")
    counter.set(0)
    calls = []
    lock = threading.Lock()
    errors = []

    def increment(current):
        with lock:
            calls.append(current)
        return (current or 0) + 1

    def worker():
        try:
            for _ in range(15):
                counter.transaction(increment)
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expect(not errors, "transactions failed: %r" % errors)
    expect(counter.get() == 60, "4 threads x 15 increments: %r" % counter.get())
    return "60 increments, %d calls of the function (%d retries after 412)" % (
        len(calls), len(calls) - 60)


@check
def ordered_and_limited_queries(db):
    scores = db.reference("/scores")
    scores.set({"a": {"score": 3}, "b": {"score": 1}, "c": {"score": 2}, "d": {"score": 5},
                "e": {"score": None}})
    top = scores.order_by_child("score").limit_to_last(2).get()
    expect(list(top.keys()) == ["a", "d"], "order_by_child + limit_to_last: %r" % top)
    low = scores.order_by_child("score").start_at(2).limit_to_first(2).get()
    expect(list(low.keys()) == ["c", "a"], "order_by_child + start_at + limit_to_first")
    keys = scores.order_by_key().start_at("b").end_at("c").get()
    expect(list(keys.keys()) == ["b", "c"], "order_by_key + start_at + end_at")
    equal = scores.order_by_child("score").equal_to(5).get()
    expect(list(equal.keys()) == ["d"], "equal_to")
    values = db.reference("/values")
    values.set({"x": 30, "y": 10, "z": 20})
    last = values.order_by_value().limit_to_last(2).get()
    expect(list(last.items()) == [("z", 20), ("x", 30)], "order_by_value + limit_to_last")


@check
def listen(db):
    ref = db.reference("/live")
    ref.set({"a": 1})
    events = queue.Queue()
    registration = ref.listen(events.put)
    try:
        def next_event():
            event = events.get(timeout=10)
            return event.event_type, event.path, event.data

        expect(next_event() == ("put", "/", {"a": 1}), "initial put")
        db.reference("/live/b").set(2)
        expect(next_event() == ("put", "/b", 2), "live put")
        ref.update({"c": 3, "a": 10})
        event_type, path, data = next_event()
        expect(event_type == "patch" and path == "/" and data == {"c": 3, "a": 10},
               "live patch: %r" % ((event_type, path, data),))
    finally:
        closing_listeners.set()
        registration.close()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: firebase_admin_check.py PATH_TO_DATASYNC_EXECUTABLE")
    with tempfile.TemporaryDirectory() as directory:
        process, port = start_server(sys.argv[1], directory)
        output = []
        reader = threading.Thread(target=lambda: output.extend(process.stdout))
        reader.start()
        try:
            os.environ["FIREBASE_DATABASE_EMULATOR_HOST"] = "127.0.0.1:%d" % port
            import firebase_admin
            from firebase_admin import db
            firebase_admin.initialize_app(
                None,
                {"databaseURL": "https://interop.firebaseio.com", "projectId": "interop"})
            failed = False
            for function in CHECKS:
                try:
                    note = function(db)
                    print("ok   %s%s" % (function.__name__, ": " + note if note else ""))
                except Exception as error:
                    print("FAIL %s: %s" % (function.__name__, error))
                    failed = True
                    break
        finally:
            process.send_signal(signal.SIGTERM)
            status = process.wait(timeout=30)
            reader.join()
        if status != 0:
            print("FAIL datasync serve exited with status %d after SIGTERM" % status)
            failed = True
        if not os.path.exists(os.path.join(directory, "data.interop.sqlite")):
            print("FAIL the namespace 'interop' has no file of its own")
            failed = True
    print("interop: %s" % ("FAILED" if failed else "all %d checks passed" % len(CHECKS)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
