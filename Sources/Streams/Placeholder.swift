public enum StreamsModule {}
