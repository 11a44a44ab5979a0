import DatasyncStreams
import Foundation
import Streams
import StreamsTesting
import Testing

@testable import Datasync

@Suite(.timeLimit(.minutes(1))) struct AuthenticationStateStreamTests {
  private static let alice = DatasyncAuthentication(uid: "alice")

  private func makeSecuredApplication() -> (WebcomApplication, DatasyncDatabase) {
    let database = DatasyncDatabase(rules: .authenticated, tokens: ["alice-token": Self.alice])
    let application = WebcomApplication(
      configuration: WebcomConfiguration(identifier: "secured", backEnd: .embedded(database)))
    return (application, database)
  }

  @Test func stateStartsWithTheCurrentStateThenFollowsTheBackEndsAnswers() async throws {
    let (application, database) = makeSecuredApplication()
    let auth = application.authenticationService
    var states = auth.streams.state.values.makeAsyncIterator()
    #expect(await states.next() == .unauthenticated)
    try await auth.authenticate(withToken: "alice-token")
    #expect(await states.next() == .authenticated(Self.alice))
    database.setAuthentication(nil, forToken: "alice-token")
    #expect(await states.next() == .unauthenticated)
  }

  @Test func stateStopsWhenCancelled() async throws {
    let (application, _) = makeSecuredApplication()
    let auth = application.authenticationService
    #expect(auth.streams.wrapped === auth)
    let recorder = RecordingSubscriber<AuthenticationState, Never>()
    auth.streams.state.subscribe(recorder)
    #expect(await eventually { recorder.values.count == 1 })
    recorder.cancel()
    try await auth.authenticate(withToken: "alice-token")
    try await auth.signOut()
    #expect(recorder.values == [.unauthenticated])
  }
}
