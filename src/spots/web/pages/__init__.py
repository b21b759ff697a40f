"""The HTML pages (``routes``): the lobby, the host page, a table's pages and the replay; Learn to play
(``tutorial``); the page scripts' words (``words``).
"""
