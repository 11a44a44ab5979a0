print("Playgrounds")
