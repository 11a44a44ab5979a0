/// The events of one client operation gathered per queue: posted as one batch per queue under
/// the client's lock, then the mailboxes that got one are kicked (see
/// ``DeliveryMailbox/kick()``).
///
/// The first queue's batch is kept apart from the others, so that an operation whose events go
/// to one queue, the usual case, allocates no list of batches.
struct DeliveryBatches {
  private struct Batch {
    let mailbox: DeliveryMailbox
    var parcels: [DeliveryMailbox.Parcel]
  }

  private var first: Batch?
  private var others: [Batch] = []

  /// Adds a subscription's events to the batch of its queue (none for no events).
  mutating func add(_ records: [EventRecord], for subscription: SubscriptionCore) {
    guard !records.isEmpty else { return }
    let parcel = DeliveryMailbox.Parcel(subscription: subscription, records: records)
    let mailbox = subscription.mailbox
    if first == nil {
      first = Batch(mailbox: mailbox, parcels: [parcel])
    } else if first?.mailbox === mailbox {
      first?.parcels.append(parcel)
    } else if let index = others.firstIndex(where: { $0.mailbox === mailbox }) {
      others[index].parcels.append(parcel)
    } else {
      others.append(Batch(mailbox: mailbox, parcels: [parcel]))
    }
  }

  /// Posts each batch to its mailbox, in the order the queues got their first events, and lets
  /// go of the parcels (the mailbox takes the array posted as it is while none waits, and
  /// appends to it without a copy only when it is the array's one owner).
  mutating func post() {
    if let batch = first {
      first = Batch(mailbox: batch.mailbox, parcels: [])
      batch.mailbox.post(batch.parcels)
    }
    for index in others.indices {
      let parcels = others[index].parcels
      others[index].parcels = []
      others[index].mailbox.post(parcels)
    }
  }

  /// Kicks the mailboxes that got a batch.
  func kick() {
    first?.mailbox.kick()
    for batch in others { batch.mailbox.kick() }
  }
}
