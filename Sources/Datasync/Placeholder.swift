public enum DatasyncModule {}
