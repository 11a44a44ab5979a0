print("datasync: under construction")
