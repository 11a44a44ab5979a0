/// The events of one client operation gathered per queue: posted as one batch per queue under
/// the client's lock, then the mailboxes that got one are kicked (see
/// ``DeliveryMailbox/kick()``).
///
/// The parcels and their mailboxes are kept in ``InlineFirstList``s, so that an operation whose
/// events go to one subscription, the usual case, allocates no list.
struct DeliveryBatches {
  /// Every parcel of the operation, in order.
  private var parcels = InlineFirstList<DeliveryMailbox.Parcel>()
  /// The mailboxes of the parcels, each once, in the order they got their first parcel.
  private var mailboxes = InlineFirstList<DeliveryMailbox>()

  /// Adds a subscription's events to the batch of its queue (none for no events).
  mutating func add(_ records: [EventRecord], for subscription: SubscriptionCore) {
    guard !records.isEmpty else { return }
    let mailbox = subscription.mailbox
    if !mailboxes.contains(where: { $0 === mailbox }) { mailboxes.append(mailbox) }
    parcels.append(DeliveryMailbox.Parcel(subscription: subscription, records: records))
  }

  /// Posts each mailbox its parcels, in the order the queues got their first events, and lets go
  /// of them, so that the mailbox, which may merge later parcels into them while they wait (see
  /// ``DeliveryConflation``), is the one owner of their events.
  mutating func post() {
    if mailboxes.count == 1 {
      mailboxes[0].post(parcels)
    } else {
      for mailbox in mailboxes {
        mailbox.post(parcels.lazy.filter { $0.subscription.mailbox === mailbox })
      }
    }
    parcels = InlineFirstList()
  }

  /// Kicks the mailboxes that got a batch.
  func kick() {
    for mailbox in mailboxes { mailbox.kick() }
  }
}
