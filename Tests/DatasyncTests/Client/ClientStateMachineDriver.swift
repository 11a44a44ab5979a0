import Foundation
import Testing

@testable import Datasync

/// Drives a ``ClientStateMachine`` step by step on the test's thread and writes the effects of
/// each step as short lines, so that a test reads as a table of steps in and effects out.
///
/// Effects are written:
/// - `s1 +a ~b -c =json` — events delivered to subscription 1, in order: child addition, change,
///   removal, value; `ack+a` and `ack=json` for acknowledgements; a trailing `*` marks an event
///   about data a pending local write still covers (not acknowledged);
/// - `send listen /a`, `send unlisten /a`, `send write 3 set /a json`, `send write 3 merge /a
///   {b:json}`, `send write 3 increment /a +1.0`, `send write 3 cas /a json -> json`, `send read 3
///   /a`, `send onDisconnection 3 set /a json`, `send cancelOnDisconnection 3 /a`;
/// - `connect`, `disconnect`, `state connected`, `state disconnected`, `identity uid` for a new
///   authentication state (`identity none` when unauthenticated);
/// - `answer 3 = json` or `answer 3 ! code`; `answer 3 auth uid` for an authentication (`none`
///   after a sign-out); `send authenticate 3 token`, `send signOut 3`;
/// - `revoke s1 s2 ! code`.
///
/// Request identifiers come from one counter starting at 1, which subscriptions and transactions
/// also draw from: tables name them as the machine numbers them.
struct ClientStateMachineDriver {
  /// One step: an operation of the client, or a message of the back end.
  enum Step {
    case subscribe(
      UInt64, _ path: String, _ eventType: DatasyncEventType,
      _ constraint: DatasyncChildrenConstraint = .all)
    case unsubscribe(
      UInt64, _ policy: DatasyncCompletedSubscriptionPolicy = .forgetData, explicitly: Bool = true)
    case set(_ path: String, _ json: String)
    /// A merge of `relative path: json` entries.
    case merge(_ path: String, [(String, String)])
    case increment(_ path: String, by: Double)
    case compareAndSet(_ path: String, expected: String, value: String)
    case writeOnDisconnection(_ path: String, _ json: String)
    case cancelDisconnectionWrites(_ path: String)
    case read(_ path: String)
    case enableConnection(Bool)
    case authenticate(token: String)
    case signOut
    case beginTransaction(_ path: String)
    case endTransaction(UInt64)

    /// Back end: the connection is up, with this clock offset.
    case connected(clockOffset: TimeInterval = 0)
    /// Back end: the connection is lost.
    case disconnected
    case listenData(_ path: String, _ json: String)
    /// Back end: another client set a value.
    case changed(_ path: String, _ json: String)
    /// Back end in the same process: another client set a value, announced with the new value
    /// of a listen at or above it (`listenJSON`).
    case changedSharing(_ path: String, _ json: String, listen: String, _ listenJSON: String)
    /// Back end: a write acknowledged, announcing the set it applied (nil: no announcement).
    case acknowledged(RequestIdentifier, set: (path: String, json: String)? = nil)
    case rejected(RequestIdentifier, WebcomError.Code, current: String? = nil)
    case value(RequestIdentifier, _ json: String)
    case revoked(_ path: String, WebcomError.Code)
    /// Back end: an authentication answered with the identity of this uid.
    case authenticated(RequestIdentifier, uid: String)
    /// Back end: the connection's identity changed to this uid (nil: unauthenticated).
    case authenticationChanged(uid: String?)
  }

  private(set) var machine: ClientStateMachine
  /// The local clock the writes see.
  var now = Date(timeIntervalSince1970: 1_000_000)

  /// A driver of a client whose back end cannot be used when `backEndError` is not nil.
  init(backEndError: WebcomError? = nil) {
    machine = ClientStateMachine(backEndError: backEndError)
  }

  /// Performs each step and checks its effects against the table.
  mutating func run(
    _ table: [(Step, [String])], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for (index, (step, expected)) in table.enumerated() {
      let effects = try perform(step)
      #expect(effects == expected, "step \(index + 1): \(step)", sourceLocation: sourceLocation)
    }
  }

  /// Performs one step; returns its effects written as lines.
  mutating func perform(_ step: Step) throws -> [String] {
    try effects(of: step).map(Self.line(of:))
  }

  private mutating func effects(of step: Step) throws -> [ClientEffect] {
    switch step {
    case .subscribe(let identifier, let path, let eventType, let constraint):
      return machine.subscribe(
        SubscriptionIdentifier(identifier), at: try Self.path(path), constraint: constraint,
        eventType: eventType)
    case .unsubscribe(let identifier, let policy, let explicitly):
      return machine.unsubscribe(
        SubscriptionIdentifier(identifier), policy: policy, explicitly: explicitly)
    case .set(let path, let json):
      return machine.write(.set(try Self.path(path), try Self.value(json)), now: now).1
    case .merge(let path, let members):
      let entries = try MergeEntry.entries(
        from: members.map { (WebcomKey($0.0), try Self.value($0.1)) })
      return machine.write(.merge(try Self.path(path), entries), now: now).1
    case .increment(let path, let step):
      return machine.write(.increment(try Self.path(path), start: 0, step: step), now: now).1
    case .compareAndSet(let path, let expected, let value):
      let operation = WriteOperation.compareAndSet(
        try Self.path(path), expected: try Self.value(expected), value: try Self.value(value))
      return machine.write(operation, now: now).1
    case .writeOnDisconnection(let path, let json):
      return machine.writeOnDisconnection(
        .set(try Self.path(path), try Self.value(json)), repeating: false
      ).1
    case .cancelDisconnectionWrites(let path):
      return machine.cancelDisconnectionWrites(at: try Self.path(path)).1
    case .read(let path):
      return machine.read(at: try Self.path(path)).1
    case .enableConnection(let enabled):
      return machine.setConnectionEnabled(enabled)
    case .authenticate(let token):
      return machine.authenticate(token: token).1
    case .signOut:
      return machine.signOut().1
    case .beginTransaction(let path):
      _ = machine.beginTransaction(at: try Self.path(path))
      return []
    case .endTransaction(let token):
      machine.endTransaction(token)
      return []
    case .connected(let offset):
      return machine.receive(.connected(clockOffset: offset))
    case .disconnected:
      return machine.receive(.disconnected)
    case .listenData(let path, let json):
      return machine.receive(.listenData(try Self.path(path), try Self.value(json)))
    case .changed(let path, let json):
      return machine.receive(.changed(.set(try Self.path(path), try Self.value(json))))
    case .changedSharing(let path, let json, let listen, let listenJSON):
      return machine.receive(
        .changedSharing(
          .set(try Self.path(path), try Self.value(json)), listen: try Self.path(listen),
          value: try Self.value(listenJSON), replaced: nil))
    case .acknowledged(let identifier, let announced):
      let operation = try announced.map { announced throws(WebcomError) in
        WriteOperation.set(try Self.path(announced.path), try Self.value(announced.json))
      }
      return machine.receive(.acknowledged(identifier, announced: operation))
    case .rejected(let identifier, let code, let current):
      return machine.receive(
        .rejected(
          identifier, WebcomError(code, "rejected by the test"),
          current: try current.map(Self.value)))
    case .value(let identifier, let json):
      return machine.receive(.value(identifier, try Self.value(json)))
    case .revoked(let path, let code):
      return machine.receive(
        .revoked(try Self.path(path), WebcomError(code, "revoked by the test")))
    case .authenticated(let identifier, let uid):
      return machine.receive(.authenticated(identifier, DatasyncAuthentication(uid: uid)))
    case .authenticationChanged(let uid):
      return machine.receive(.authenticationChanged(uid.map { DatasyncAuthentication(uid: $0) }))
    }
  }

  /// The value at a path as the application sees it, as JSON.
  func cached(_ path: String) throws -> String {
    machine.cachedValue(at: try Self.path(path)).jsonString
  }

  static func path(_ string: String) throws(WebcomError) -> DatasyncPath {
    try DatasyncPath(parsing: string)
  }

  static func value(_ json: String) throws(WebcomError) -> JSONValue {
    try JSONParser.parse(Data(json.utf8))
  }

  // MARK: Writing effects

  static func line(of effect: ClientEffect) -> String {
    switch effect {
    case .deliver(let records, let identifier):
      return ([identifier.description] + records.map(word(of:))).joined(separator: " ")
    case .send(let request):
      return "send " + line(of: request)
    case .connect(let connected):
      return connected ? "connect" : "disconnect"
    case .answer(let identifier, .success(let value)):
      return "answer \(identifier) = \(value.jsonString)"
    case .answer(let identifier, .failure(let error)),
      .answerAuthentication(let identifier, .failure(let error)):
      return "answer \(identifier) ! \(error.code)"
    case .answerAuthentication(let identifier, .success(let authentication)):
      return "answer \(identifier) auth \(authentication?.uid ?? "none")"
    case .changeState(.connected):
      return "state connected"
    case .changeState(.disconnected):
      return "state disconnected"
    case .changeAuthentication(let identity):
      return "identity \(identity?.uid ?? "none")"
    case .revoke(let identifiers, let error):
      return (["revoke"] + identifiers.map(\.description) + ["!", "\(error.code)"])
        .joined(separator: " ")
    }
  }

  private static func word(of record: EventRecord) -> String {
    let word: String
    switch record.eventType {
    case .childAddition: word = "+" + record.path.key.value
    case .childChange: word = "~" + record.path.key.value
    case .childRemoval: word = "-" + record.path.key.value
    case .childAcknowledgement: word = "ack+" + record.path.key.value
    case .valueAcknowledgement: word = "ack=" + record.value.jsonString
    default: word = "=" + record.value.jsonString
    }
    return record.acked ? word : word + "*"
  }

  private static func line(of request: ClientRequest) -> String {
    switch request {
    case .listen(let path): "listen \(path.string)"
    case .unlisten(let path): "unlisten \(path.string)"
    case .write(let identifier, let operation): "write \(identifier) \(line(of: operation))"
    case .writeOnDisconnection(let identifier, let operation, _):
      "onDisconnection \(identifier) \(line(of: operation))"
    case .cancelDisconnectionWrites(let identifier, let path):
      "cancelOnDisconnection \(identifier) \(path.string)"
    case .read(let identifier, let path): "read \(identifier) \(path.string)"
    case .authenticate(let identifier, let token): "authenticate \(identifier) \(token)"
    case .signOut(let identifier): "signOut \(identifier)"
    }
  }

  private static func line(of operation: WriteOperation) -> String {
    switch operation {
    case .set(let path, let value):
      "set \(path.string) \(value.jsonString)"
    case .merge(let path, let entries):
      "merge \(path.string) {"
        + entries.map { "\($0.relativePath):\($0.value.jsonString)" }.joined(separator: ",") + "}"
    case .increment(let path, _, let step):
      "increment \(path.string) +\(step)"
    case .compareAndSet(let path, let expected, let value):
      "cas \(path.string) \(expected.jsonString) -> \(value.jsonString)"
    }
  }
}

extension ClientStateMachine {
  /// ``write(_:now:into:)`` with its effects returned, as the tests read them.
  mutating func write(_ operation: WriteOperation, now: Date) -> (
    RequestIdentifier, [ClientEffect]
  ) {
    var effects: [ClientEffect] = []
    let identifier = write(operation, now: now, into: &effects)
    return (identifier, effects)
  }

  /// ``receive(_:into:)`` with its effects returned, as the tests read them.
  mutating func receive(_ message: BackEndMessage) -> [ClientEffect] {
    var effects: [ClientEffect] = []
    receive(message, into: &effects)
    return effects
  }
}
