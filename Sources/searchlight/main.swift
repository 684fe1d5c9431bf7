print("searchlight")
