import Testing

@testable import Datasync

@Suite struct DatasyncEventTypeTests {
  @Test func shorthandsSetOneFlag() {
    #expect(DatasyncEventType.valueChange == .value(change: true))
    #expect(DatasyncEventType.valueAcknowledgement == .value(acknowledgement: true))
    #expect(DatasyncEventType.childAddition == .child(addition: true))
    #expect(DatasyncEventType.childChange == .child(change: true))
    #expect(DatasyncEventType.childRemoval == .child(removal: true))
    #expect(DatasyncEventType.childAcknowledgement == .child(acknowledgement: true))
    let singles: [DatasyncEventType] = [
      .valueChange, .valueAcknowledgement, .childAddition, .childChange, .childRemoval,
      .childAcknowledgement,
    ]
    #expect(Set(singles).count == 6)
    for single in singles { #expect(single.singleTypes == [single]) }
  }

  @Test func containsAndDecomposition() {
    let children = DatasyncEventType.child(addition: true, removal: true)
    #expect(children.contains(.childAddition))
    #expect(children.contains(.childRemoval))
    #expect(!children.contains(.childChange))
    #expect(!children.contains(.valueChange))
    #expect(children.singleTypes == [.childAddition, .childRemoval])
    #expect(!children.isValueType)
    let value = DatasyncEventType.value(change: true, withoutData: true, acknowledgement: true)
    #expect(value.isValueType)
    #expect(value.isWithoutData)
    #expect(!DatasyncEventType.valueChange.isWithoutData)
    #expect(value.contains(.valueChange))
    #expect(value.contains(.valueAcknowledgement))
    #expect(!value.contains(.childAddition))
    #expect(value.singleTypes == [.valueChange, .valueAcknowledgement])
    #expect(!DatasyncEventType.value().asksForEvents)
    #expect(DatasyncEventType.child(change: true).asksForEvents)
  }
}
