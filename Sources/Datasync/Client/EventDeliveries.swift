/// The events of one operation of a client gathered per queue, posted as one batch per queue
/// (kicked afterwards, see ``DeliveryMailbox/kick()``).
struct EventDeliveries {
  private var parcels: [(mailbox: DeliveryMailbox, parcels: [DeliveryMailbox.Parcel])] = []

  mutating func add(_ records: [EventRecord], for subscription: SubscriptionCore) {
    guard !records.isEmpty else { return }
    let parcel = DeliveryMailbox.Parcel(subscription: subscription, records: records)
    if let index = parcels.firstIndex(where: { $0.mailbox === subscription.mailbox }) {
      parcels[index].parcels.append(parcel)
    } else {
      parcels.append((subscription.mailbox, [parcel]))
    }
  }

  /// Posts the batches; returns their mailboxes.
  func post() -> [DeliveryMailbox] {
    for (mailbox, parcels) in parcels { mailbox.post(parcels) }
    return parcels.map(\.mailbox)
  }
}
