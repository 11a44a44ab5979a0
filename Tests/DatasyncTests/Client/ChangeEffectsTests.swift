import Testing

@testable import Datasync

@Suite struct ChangeEffectsTests {
  private static func effect(_ keys: WebcomKey...) -> ChangeEffect {
    ChangeEffect(path: DatasyncPath(validatedKeys: keys), children: nil)
  }

  @Test func oneEffectIsACollectionOfOne() {
    let effects = ChangeEffects.one(Self.effect("a", "b"))
    #expect(effects.count == 1 && !effects.isEmpty)
    #expect(effects.map(\.path.string) == ["/a/b"])
    #expect(effects[0].path.string == "/a/b")
  }

  @Test func aListKeepsItsOrderAndEmptyHasNone() {
    let effects = ChangeEffects.list([Self.effect("b"), Self.effect("a")])
    #expect(effects.count == 2)
    #expect(effects.map(\.path.string) == ["/b", "/a"])
    #expect(ChangeEffects.empty.isEmpty && ChangeEffects.empty.count == 0)
  }

  @Test func aSetThatChangesNothingHasNoEffect() {
    let path = DatasyncPath(validatedKeys: ["a"])
    #expect(ChangeEffect.effects(ofSetAt: path, replacing: .int(1), with: .int(1)).isEmpty)
    #expect(ChangeEffect.effects(ofSetAt: path, replacing: .null, with: .null).isEmpty)
    let changed = ChangeEffect.effects(ofSetAt: path, replacing: .int(1), with: .int(2))
    #expect(changed.count == 1)
    #expect(changed.first?.values?.before == .int(1) && changed.first?.values?.after == .int(2))
  }
}
