"""High Card's report templates, one per format."""
