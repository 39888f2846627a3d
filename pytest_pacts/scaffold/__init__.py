"""Writing things for people: Excel requirement workbooks and project scaffolds."""
