/// The events of one client operation gathered per queue: posted as one batch per queue under
/// the client's lock, then the mailboxes that got one are kicked (see
/// ``DeliveryMailbox/kick()``).
///
/// The first queue's batch is kept apart from the others, so that an operation whose events go
/// to one queue, the usual case, allocates no list of batches.
struct DeliveryBatches {
  /// The parcels of one queue, the first kept apart: an operation whose events go to one
  /// subscription of the queue makes no list of parcels.
  private struct Batch {
    let mailbox: DeliveryMailbox
    /// Nil once posted.
    var first: DeliveryMailbox.Parcel?
    var others: [DeliveryMailbox.Parcel] = []

    /// Posts the parcels to the mailbox and lets go of them, so that the mailbox, which may merge
    /// later parcels into them while they wait (see ``DeliveryConflation``), is the one owner of
    /// their events.
    mutating func post() {
      guard let parcel = first else { return }
      first = nil
      mailbox.post(parcel, others)
      others = []
    }
  }

  private var first: Batch?
  private var others: [Batch] = []

  /// Adds a subscription's events to the batch of its queue (none for no events).
  mutating func add(_ records: [EventRecord], for subscription: SubscriptionCore) {
    guard !records.isEmpty else { return }
    let parcel = DeliveryMailbox.Parcel(subscription: subscription, records: records)
    let mailbox = subscription.mailbox
    if first == nil {
      first = Batch(mailbox: mailbox, first: parcel)
    } else if first?.mailbox === mailbox {
      first?.others.append(parcel)
    } else if let index = others.firstIndex(where: { $0.mailbox === mailbox }) {
      others[index].others.append(parcel)
    } else {
      others.append(Batch(mailbox: mailbox, first: parcel))
    }
  }

  /// Posts each batch to its mailbox, in the order the queues got their first events.
  mutating func post() {
    first?.post()
    for index in others.indices { others[index].post() }
  }

  /// Kicks the mailboxes that got a batch.
  func kick() {
    first?.mailbox.kick()
    for batch in others { batch.mailbox.kick() }
  }
}
