/// A namespace for subscriber types and the values they exchange with publishers.
public enum Subscribers {}
