import Searchlight; print("notes")
