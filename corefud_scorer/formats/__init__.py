"""Read and write the file formats: one reader and one writer per format behind one seam,
each format's profile (its defaults), where the bytes come from, and what is wrong with them."""
