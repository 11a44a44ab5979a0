print("datasync-bench")
