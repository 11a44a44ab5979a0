import Foundation
import Testing

@testable import Datasync

/// Access checks racing rule changes, token revocations and authentications on many threads:
/// no forbidden write is ever applied or announced, and every request is answered once.
@Suite struct AccessStressTests {
  /// Users write their own name (a short string); under the tighter rules, names are read only
  /// by their owner.
  private static let open = """
    {"rules": {"users": {"$uid": {
      ".read": "auth != null",
      ".write": "auth != null && auth.uid == $uid",
      "name": {".validate": "newData.isString() && !newData.val().contains('evil')"}
    }}}}
    """
  private static let tight = """
    {"rules": {"users": {"$uid": {
      ".read": "auth != null && auth.uid == $uid",
      ".write": "auth != null && auth.uid == $uid",
      "name": {".validate": "newData.isString() && !newData.val().contains('evil')"}
    }}}}
    """

  /// Whether a write announced to the administrator carries a forbidden value.
  private static func isForbidden(_ message: BackEndMessage) -> Bool {
    guard case .changed(let operation) = message else { return false }
    switch operation {
    case .set(_, let value): return value.jsonString.contains("evil")
    case .merge(_, let entries): return entries.contains { $0.value.jsonString.contains("evil") }
    default: return true
    }
  }

  @Test func forbiddenWritesNeverLandWhileRulesAndTokensChange() throws {
    let users = (0..<4).map { "user\($0)" }
    var tokens: [String: DatasyncAuthentication] = ["admin": .admin]
    for user in users { tokens[user] = DatasyncAuthentication(uid: user) }
    let openRules = try DatasyncRules(json: Self.open)
    let tightRules = try DatasyncRules(json: Self.tight)
    let database = DatasyncDatabase(rules: openRules, tokens: tokens)
    let observer = RawClient(database)
    observer.send(.authenticate(1, token: "admin"))
    observer.send(.listen(.root))
    let iterations = 300
    let group = DispatchGroup()
    let answered = Shared<[Int]>(Array(repeating: 0, count: users.count))
    let sent = Shared<[Int]>(Array(repeating: 0, count: users.count))
    for (index, user) in users.enumerated() {
      group.enter()
      Thread.detachNewThread {
        let client = RawClient(database)
        let victim = users[(index + 1) % users.count]
        var identifier: WriteIdentifier = 0
        func send(_ make: (WriteIdentifier) -> ClientRequest) {
          identifier += 1
          client.send(make(identifier))
        }
        let users = DatasyncPath.root.child("users")
        let own = users.child(WebcomKey(user)).child("name")
        let theirRecord = users.child(WebcomKey(victim))
        let theirs = theirRecord.child("name")
        for iteration in 0..<iterations {
          if iteration % 10 == 0 { send { .authenticate($0, token: user) } }
          send { .write($0, .set(own, .string("\(user) \(iteration)"))) }
          send { .write($0, .set(own, .string("evil \(iteration)"))) }
          send { .write($0, .set(theirs, .string("\(user) was here"))) }
          send {
            .write(
              $0,
              .merge(
                users,
                [
                  MergeEntry(keys: [WebcomKey(user), "name"], value: .string("fine")),
                  MergeEntry(keys: [WebcomKey(victim), "name"], value: .string("evil")),
                ]))
          }
          client.send(.listen(theirRecord))
          send { .writeOnDisconnection($0, .set(theirs, .string("evil")), repeating: false) }
        }
        let answers = client.take().filter { message in
          switch message {
          case .acknowledged, .rejected, .authenticated: return true
          default: return false
          }
        }
        database.detach(ObjectIdentifier(client))
        answered.update { $0[index] = answers.count }
        sent.update { $0[index] = iterations / 10 + iterations * 5 }
        group.leave()
      }
    }
    group.enter()
    Thread.detachNewThread {
      for iteration in 0..<iterations {
        database.rules = iteration.isMultiple(of: 2) ? tightRules : openRules
        let user = users[iteration % users.count]
        database.setAuthentication(nil, forToken: user)
        database.setAuthentication(DatasyncAuthentication(uid: user), forToken: user)
      }
      group.leave()
    }
    #expect(group.wait(timeout: .now() + 120) == .success)
    #expect(answered.current == sent.current)
    let announced = observer.take()
    #expect(!announced.contains(where: Self.isForbidden))
    #expect(announced.contains { if case .changed = $0 { true } else { false } })
    let stored = database.value(at: .root).jsonString
    #expect(!stored.contains("evil") && !stored.contains("was here"), "\(stored)")
  }
}
