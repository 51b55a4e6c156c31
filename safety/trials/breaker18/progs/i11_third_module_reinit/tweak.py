from config import CFG
CFG.__init__('y')
