"""The ground every wing stands on: the deck, the table's layout, located errors, the work budget."""
