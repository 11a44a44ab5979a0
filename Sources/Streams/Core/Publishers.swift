/// A namespace for the publisher types that sources and operators return.
///
/// Each operator lives in one file of `Operators/`, named after it: its `Publisher` method (and
/// its `try` and `where` variants), its `Publishers` type, and the subscription that type gives
/// its subscribers. A subscription shared by several operators — an arity family (`Merge` to
/// `Merge8`, `MergeMany`), the operators driven by another publisher, `flatMap` and
/// `switchToLatest` — has its own file, named after it; the templates of the simple operators are
/// in `Operators/Internal/`, the delivery engine of the stateful ones in `Internal/`.
public enum Publishers {}
