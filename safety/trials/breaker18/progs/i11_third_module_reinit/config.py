class Config:
    def __init__(self, axis='x'):
        self.axis = axis


CFG = Config('z')
