/// How a subscription (or an operator's subscriber) presents itself to `print()`, debuggers and
/// playgrounds: by its operator's name (`"Map"`, `"Debounce"`, ...), as Combine shows it.
@usableFromInline
internal protocol OperatorNamed: CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  /// The operator's name, such as `"Debounce"`.
  var operatorName: String { get }
}

extension OperatorNamed {
  @usableFromInline
  var description: String { operatorName }

  @usableFromInline
  var customMirror: Mirror {
    Mirror(self, children: ["operator": operatorName], displayStyle: .class)
  }

  @usableFromInline
  var playgroundDescription: Any { operatorName }
}
