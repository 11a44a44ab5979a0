/// A namespace for the publisher types that sources and operators return.
public enum Publishers {}
